import { describe, expect, it } from 'vitest';
import { manualClock, steadyClock } from './clock';

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
