import type { Db } from '../db/database';

export interface WindowRule {
  /** Identifies the counter: the key or account plus the window's name. */
  bucket: string;
  limit: number;
  windowMs: number;
}

export interface WindowState {
  bucket: string;
  limit: number;
  remaining: number;
  /** Epoch milliseconds when this window's count starts again from zero. */
  resetAt: number;
}

export interface LimitDecision {
  allowed: boolean;
  windows: WindowState[];
  /** Seconds until every refusing window has room again (only when refused). */
  retryAfterSeconds: number;
}

interface Counter {
  windowStart: number;
  count: number;
}

/**
 * Fixed-window request counters kept in memory. A request is admitted only when every window it
 * falls under has room, and only an admitted request is counted, so refused requests use no quota.
 * Counters can be written to and read back from the database so a restart inside a window does
 * not hand out a fresh window.
 */
export class RateLimiter {
  private readonly counters = new Map<string, Counter>();
  private readonly dirty = new Set<string>();

  take(rules: WindowRule[], now: number): LimitDecision {
    const current = rules.map((rule) => {
      const counter = this.counters.get(rule.bucket);
      // A wall clock stepped back must not open the earlier window afresh, nor, once it steps
      // forward again, the window it left: a counter's window only ever moves forward.
      const windowStart = Math.max(
        Math.floor(now / rule.windowMs) * rule.windowMs,
        counter?.windowStart ?? 0,
      );
      const count = counter && counter.windowStart === windowStart ? counter.count : 0;
      return { rule, windowStart, count };
    });
    const allowed = current.every(({ rule, count }) => count < rule.limit);
    if (allowed) {
      for (const { rule, windowStart, count } of current) {
        this.counters.set(rule.bucket, { windowStart, count: count + 1 });
        this.dirty.add(rule.bucket);
      }
    }
    const windows = current.map(({ rule, windowStart, count }) => ({
      bucket: rule.bucket,
      limit: rule.limit,
      remaining: Math.max(0, rule.limit - count - (allowed ? 1 : 0)),
      resetAt: windowStart + rule.windowMs,
    }));
    const refusing = current.filter(({ rule, count }) => count >= rule.limit);
    const retryAt = Math.max(0, ...refusing.map(({ rule, windowStart }) => windowStart + rule.windowMs));
    return {
      allowed,
      windows,
      retryAfterSeconds: allowed ? 0 : Math.max(1, Math.ceil((retryAt - now) / 1000)),
    };
  }

  /** Reads counters saved by an earlier run; windows that have ended are simply never matched. */
  async restore(db: Db, prefix: string): Promise<void> {
    const rows = await db
      .selectFrom('rate_limit_windows')
      .selectAll()
      .where('bucket', 'like', `${prefix}%`)
      .execute();
    for (const row of rows)
      this.counters.set(row.bucket, { windowStart: row.window_start, count: row.count });
  }

  /** Writes the counters changed since the last flush. */
  async flush(db: Db): Promise<void> {
    if (this.dirty.size === 0) return;
    const rows = [...this.dirty].map((bucket) => {
      const counter = this.counters.get(bucket)!;
      return { bucket, window_start: counter.windowStart, count: counter.count };
    });
    this.dirty.clear();
    await db.transaction().execute(async (tx) => {
      for (const row of rows) {
        await tx
          .insertInto('rate_limit_windows')
          .values(row)
          .onConflict((oc) =>
            oc.column('bucket').doUpdateSet({ window_start: row.window_start, count: row.count }),
          )
          .execute();
      }
    });
  }
}
