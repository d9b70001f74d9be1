import { describe, expect, it } from 'vitest';
import { clockFromEnvironment, manualClock, steadyClock, systemClock } from './clock';

describe('steadyClock', () => {
  it('follows the wall clock forward and keeps real pace when it steps back', () => {
    const wall = manualClock('2026-11-22T09:00:00Z');
    const steady = steadyClock(wall);
    expect(steady.now().toISOString()).toBe('2026-11-22T09:00:00.000Z');
    wall.advance(5_000);
    expect(steady.now().toISOString()).toBe('2026-11-22T09:00:05.000Z');
    wall.set('2026-11-22T07:00:05Z');
    wall.advance(10_000);
    expect(steady.now().toISOString()).toBe('2026-11-22T09:00:15.000Z');
    wall.set('2026-11-22T12:00:00Z');
    expect(steady.now().toISOString()).toBe('2026-11-22T12:00:00.000Z');
  });
});

describe('clockFromEnvironment', () => {
  it('is the machine clock unless SHOPDESK_CLOCK_OFFSET_MS moves it, and refuses what is not milliseconds', () => {
    expect(clockFromEnvironment({})).toBe(systemClock);
    const slow = clockFromEnvironment({ SHOPDESK_CLOCK_OFFSET_MS: String(-3 * 3600_000) });
    const offset = slow.now().getTime() - Date.now();
    expect(offset).toBeGreaterThan(-3 * 3600_000 - 1000);
    expect(offset).toBeLessThanOrEqual(-3 * 3600_000);
    expect(() => clockFromEnvironment({ SHOPDESK_CLOCK_OFFSET_MS: '2 days' })).toThrow(/whole milliseconds/);
  });
});
