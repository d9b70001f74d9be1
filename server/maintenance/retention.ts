import { sql } from 'kysely';
import type { AppContext } from '../context';
import { HISTORY_PER_RECORD, HISTORY_RETENTION_DAYS } from '../domain/record-history';
import { toIso } from '../lib/clock';
import { type PeriodicJob, startPeriodicJob } from '../lib/periodic-job';

const HOUR_MS = 60 * 60 * 1000;
const DAY_MS = 24 * HOUR_MS;

/** Stored responses are replayed for 24 h (contract part 3); after that the key is free again. */
export const REPLAY_WINDOW_MS = DAY_MS;

/**
 * How long rows that are not business records are kept (docs/decisions.md, "Retention"). Business
 * records (customers, documents, payments, jobs, bookings, reviews, mail sent to customers) are
 * never pruned; these tables grow with traffic rather than with the business.
 */
export const RETENTION = {
  idempotencyKeysMs: REPLAY_WINDOW_MS,
  /** Finished webhook deliveries and their attempts: the history the API and Settings show. */
  finishedDeliveriesMs: 30 * DAY_MS,
  /** Events, once no delivery waits on them: what GET /api/v1/events can still catch up on. */
  eventsMs: 30 * DAY_MS,
  /** Rate-limit counters of windows long ended (the longest window is a day). */
  rateLimitWindowsMs: 2 * DAY_MS,
  /** Each record's history (docs/sync.md): 90 days, and the newest 200 entries of a record. */
  recordChangesMs: HISTORY_RETENTION_DAYS * DAY_MS,
} as const;

/** First run a while after start, off the start-up path; then hourly. */
const FIRST_RUN_DELAY_MS = 60_000;
const INTERVAL_MS = HOUR_MS;
/** Rows deleted per statement: each batch is a short write, so requests get the lock in between. */
const BATCH = 500;

export type PruneReport = Record<
  | 'idempotency_keys'
  | 'webhook_attempts'
  | 'webhook_deliveries'
  | 'events'
  | 'sessions'
  | 'sign_in_links'
  | 'rate_limit_windows'
  | 'record_changes',
  number
>;

const pause = () => new Promise((resolve) => setImmediate(resolve));

/** Deletes, a batch at a time, the rows of `table` that `where` selects; returns how many. */
async function pruneInBatches(ctx: AppContext, table: string, where: string): Promise<number> {
  let total = 0;
  for (;;) {
    const result = await sql
      .raw(`DELETE FROM ${table} WHERE rowid IN (SELECT rowid FROM ${table} WHERE ${where} LIMIT ${BATCH})`)
      .execute(ctx.db);
    const deleted = Number(result.numAffectedRows ?? 0);
    total += deleted;
    if (deleted < BATCH) return total;
    await pause();
  }
}

const quote = (text: string) => `'${text.replaceAll("'", "''")}'`;

/** One pass over every bounded table, by ctx.clock. */
export async function pruneExpired(ctx: AppContext): Promise<PruneReport> {
  const now = ctx.clock.now().getTime();
  const before = (ms: number) => quote(toIso(new Date(now - ms)));
  const nowIso = quote(toIso(new Date(now)));
  const finished = `status IN ('succeeded','failed') AND updated_at < ${before(RETENTION.finishedDeliveriesMs)}`;
  return {
    idempotency_keys: await pruneInBatches(
      ctx,
      'idempotency_keys',
      `created_at < ${before(RETENTION.idempotencyKeysMs)}`,
    ),
    webhook_attempts: await pruneInBatches(
      ctx,
      'webhook_attempts',
      `delivery_id IN (SELECT id FROM webhook_deliveries WHERE ${finished})`,
    ),
    webhook_deliveries: await pruneInBatches(
      ctx,
      'webhook_deliveries',
      `${finished} AND NOT EXISTS (SELECT 1 FROM webhook_attempts a WHERE a.delivery_id = webhook_deliveries.id)`,
    ),
    sessions: await pruneInBatches(ctx, 'sessions', `expires_at < ${nowIso}`),
    sign_in_links: await pruneInBatches(ctx, 'sign_in_links', `expires_at < ${nowIso}`),
    rate_limit_windows: await pruneInBatches(
      ctx,
      'rate_limit_windows',
      `window_start < ${now - RETENTION.rateLimitWindowsMs}`,
    ),
    record_changes:
      (await pruneInBatches(ctx, 'record_changes', `changed_at < ${before(RETENTION.recordChangesMs)}`)) +
      (await pruneInBatches(
        ctx,
        'record_changes',
        `id IN (SELECT id FROM (SELECT id, row_number() OVER (PARTITION BY account_id, record_type, record_id
          ORDER BY id DESC) AS n FROM record_changes) WHERE n > ${HISTORY_PER_RECORD})`,
      )),
    // Last: a table another part of the product adds with a reference to events cannot hold the rest up.
    // A synced business's events are shared rows (docs/sync.md): one device pruning them would
    // delete them everywhere, so they stay.
    events: await pruneInBatches(
      ctx,
      'events',
      `created_at < ${before(RETENTION.eventsMs)} AND NOT EXISTS (SELECT 1 FROM webhook_deliveries d WHERE d.event_id = events.id)
        AND account_id NOT IN (SELECT account_id FROM sync_settings)`,
    ),
  };
}

/** Prunes in the background; `runNow()` resolves with what it deleted. */
export type RetentionJob = PeriodicJob<PruneReport>;

/** Prunes in the background of a running server: never at start-up, never inside a request. */
export function startRetentionJob(ctx: AppContext): RetentionJob {
  return startPeriodicJob('retention', () => pruneExpired(ctx), {
    firstDelayMs: FIRST_RUN_DELAY_MS,
    intervalMs: INTERVAL_MS,
  });
}
