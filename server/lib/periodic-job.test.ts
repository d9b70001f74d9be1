import { afterEach, describe, expect, it, vi } from 'vitest';
import { startPeriodicJob } from './periodic-job';

afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

describe('startPeriodicJob', () => {
  it('runs one pass at a time: a pass asked for meanwhile starts after the one under way', async () => {
    const log: string[] = [];
    let n = 0;
    const job = startPeriodicJob(
      'test',
      async () => {
        const pass = ++n;
        log.push(`start ${pass}`);
        await new Promise((resolve) => setTimeout(resolve, 20));
        log.push(`end ${pass}`);
        return pass;
      },
      { firstDelayMs: 60_000, intervalMs: 60_000 },
    );
    expect(await Promise.all([job.runNow(), job.runNow()])).toEqual([1, 2]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
    await job.stop();
  });

  it('logs a failed scheduled pass and runs the next; stop waits for the pass under way and tells it', async () => {
    vi.useFakeTimers();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const seen: boolean[] = [];
    let release: () => void = () => {};
    let calls = 0;
    const job = startPeriodicJob(
      'test job',
      async (stopping) => {
        calls += 1;
        if (calls === 1) throw new Error('disk on fire');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        seen.push(stopping());
        return calls;
      },
      { firstDelayMs: 1_000, intervalMs: 10_000 },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(logged).toHaveBeenCalledWith('test job: a pass failed', expect.any(Error));
    await vi.advanceTimersByTimeAsync(10_000);
    expect(calls).toBe(2);
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(stopped).toBe(false);
    release();
    await stopping;
    expect(seen).toEqual([true]);
    await vi.advanceTimersByTimeAsync(60_000);
    expect(calls).toBe(2);
  });

  it('pause waits for the pass under way; a pass falling due while paused runs after resume', async () => {
    vi.useFakeTimers();
    const log: string[] = [];
    let release: () => void = () => {};
    const job = startPeriodicJob(
      'test',
      async () => {
        log.push('start');
        await new Promise<void>((resolve) => {
          release = resolve;
        });
        log.push('end');
      },
      { firstDelayMs: 1_000, intervalMs: 10_000 },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    let paused = false;
    const pausing = job.pause().then(() => {
      paused = true;
    });
    await vi.advanceTimersByTimeAsync(0);
    expect(paused).toBe(false);
    release();
    await pausing;
    await vi.advanceTimersByTimeAsync(10_000);
    expect(log).toEqual(['start', 'end']);
    job.resume();
    await vi.advanceTimersByTimeAsync(0);
    expect(log).toEqual(['start', 'end', 'start']);
    release();
    await job.stop();
  });
});
