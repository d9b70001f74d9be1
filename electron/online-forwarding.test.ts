import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { OnlineWatcher } from './online-forwarding';

beforeEach(() => {
  vi.useFakeTimers();
});
afterEach(() => {
  vi.useRealTimers();
});

describe('OnlineWatcher', () => {
  it('polls and forwards changes only', () => {
    const readings = [false, false, false, true, true, false, false];
    const watcher = new OnlineWatcher({ probe: () => readings.shift() ?? false, intervalMs: 1_000 });
    const forwarded: boolean[] = [];
    watcher.onChange((online) => forwarded.push(online));

    watcher.start();
    expect(watcher.current).toBe(false);
    vi.advanceTimersByTime(6_000);
    expect(forwarded).toEqual([true, false]);
    expect(watcher.current).toBe(false);
  });

  it('checks on demand and stops polling when stopped', () => {
    let online = true;
    const probe = vi.fn(() => online);
    const watcher = new OnlineWatcher({ probe, intervalMs: 1_000 });
    const forwarded: boolean[] = [];
    const unsubscribe = watcher.onChange((value) => forwarded.push(value));
    watcher.start();
    online = false;
    watcher.check();
    expect(forwarded).toEqual([false]);

    watcher.stop();
    const calls = probe.mock.calls.length;
    vi.advanceTimersByTime(10_000);
    expect(probe.mock.calls.length).toBe(calls);

    unsubscribe();
    online = true;
    watcher.check();
    expect(forwarded).toEqual([false]);
  });
});
