import { rmSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import { openDatabase } from '../sync/open';
import { RateLimiter } from './rate-limiter';

const HOUR = 3_600_000;
const DAY = 24 * HOUR;
const rules = [
  { bucket: 'a:hour', limit: 2, windowMs: HOUR },
  { bucket: 'a:day', limit: 3, windowMs: DAY },
];

describe('RateLimiter', () => {
  it('admits while every window has room and counts only admitted requests', () => {
    const limiter = new RateLimiter();
    const t0 = Date.parse('2026-11-22T10:00:00Z');
    expect(limiter.take(rules, t0).allowed).toBe(true);
    expect(limiter.take(rules, t0 + 1).windows.map((w) => w.remaining)).toEqual([0, 1]);
    const refused = limiter.take(rules, t0 + 2);
    expect(refused.allowed).toBe(false);
    expect(refused.retryAfterSeconds).toBe(3600);
    // A refused request used no quota: the daily window still has one left in the next hour.
    const nextHour = limiter.take(rules, t0 + HOUR);
    expect(nextHour.allowed).toBe(true);
    expect(nextHour.windows[1]!.remaining).toBe(0);
    const dailyRefusal = limiter.take(rules, t0 + HOUR + 1);
    expect(dailyRefusal.allowed).toBe(false);
    expect(dailyRefusal.retryAfterSeconds).toBe(
      Math.ceil((Date.parse('2026-11-23T00:00:00Z') - (t0 + HOUR + 1)) / 1000),
    );
  });

  it('gives no fresh quota when the wall clock steps back and then forward again', () => {
    const limiter = new RateLimiter();
    const t0 = Date.parse('2026-11-22T10:30:00Z');
    limiter.take(rules, t0);
    limiter.take(rules, t0 + 1);
    expect(limiter.take(rules, t0 + 2).allowed).toBe(false);
    // Two hours back: the earlier hour is not a new window.
    expect(limiter.take(rules, t0 - 2 * HOUR).allowed).toBe(false);
    // And forward again into the hour it left: still the same, spent window.
    expect(limiter.take(rules, t0 + 3).allowed).toBe(false);
    expect(limiter.take(rules, t0 + HOUR).allowed).toBe(true);
  });

  it('keeps its counts across a restart through the database', async () => {
    const { dir, database: first } = await openMigratedDatabase('shopdesk-limiter-');
    try {
      const t0 = Date.parse('2026-11-22T10:00:00Z');
      const before = new RateLimiter();
      before.take(rules, t0);
      before.take(rules, t0 + 1);
      await before.flush(first.db);
      await first.close();

      const second = await openDatabase(dir);
      const after = new RateLimiter();
      await after.restore(second.db, 'a:');
      expect(after.take(rules, t0 + 2).allowed).toBe(false);
      await second.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
