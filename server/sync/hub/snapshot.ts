import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { Pool } from 'pg';
import type { HubStorage, SnapshotQuery, SnapshotRows } from './storage';

/**
 * The first sync's snapshot (docs/sync.md, "First sync"): the business as it stood at one
 * sequence number, a table at a time in key order, in pages. Rows changed after that number are
 * left out; the device pulls them afterwards from it like any change. The stored JSON texts go
 * out as they are, so a page costs the hub one index range read and no parsing.
 */

const PAGE_SQL =
  'SELECT pk, vals, clocks FROM hub_rows WHERE account_id = ? AND tbl = ? AND pk > ? AND seq <= ? ORDER BY pk LIMIT ?';
const LAST_SEQ_SQL = 'SELECT last_seq FROM hub_businesses WHERE account_id = ?';

/** Call inside one transaction of the embedded hub's SQLite. */
export function sqliteSnapshot(
  sqlite: SQLite.Database,
  accountId: string,
  query: SnapshotQuery,
): SnapshotRows {
  const upTo =
    query.upTo ??
    (sqlite.prepare(LAST_SEQ_SQL).get(accountId) as { last_seq: number } | undefined)?.last_seq ??
    0;
  const rows = sqlite
    .prepare(PAGE_SQL)
    .all(accountId, query.table, query.after, upTo, query.limit) as SnapshotRows['rows'];
  return { up_to: upTo, rows };
}

/**
 * The same on PostgreSQL. The counter is read before the page: every row numbered at or below it
 * committed with it, so the page cannot miss one.
 */
export async function pgSnapshot(pool: Pool, accountId: string, query: SnapshotQuery): Promise<SnapshotRows> {
  let upTo = query.upTo;
  if (upTo === undefined) {
    const business = await pool.query<{ last_seq: string }>(numbered(LAST_SEQ_SQL), [accountId]);
    upTo = Number(business.rows[0]?.last_seq ?? 0);
  }
  const page = await pool.query<SnapshotRows['rows'][number]>(numbered(PAGE_SQL), [
    accountId,
    query.table,
    query.after,
    upTo,
    query.limit,
  ]);
  return { up_to: upTo, rows: page.rows };
}

function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/**
 * One page on the wire: `{"table","up_to","rows":[[pk, values, clocks], …],"next"}`, where a row
 * whose clocks are all empty (the business as it was when it first synced) carries 0 for them,
 * and `next` is the key to ask after, or null at the end of the table.
 */
export async function snapshotPageText(
  storage: HubStorage,
  accountId: string,
  query: SnapshotQuery,
): Promise<string> {
  const page = await storage.snapshot(accountId, query);
  const rows = page.rows.map((r) => `[${r.pk},${r.vals},${hasClock(r.clocks) ? r.clocks : '0'}]`);
  const last = page.rows.at(-1);
  const next = last && page.rows.length === query.limit ? JSON.stringify(last.pk) : 'null';
  return `{"table":${JSON.stringify(query.table)},"up_to":${page.up_to},"rows":[${rows.join(',')}],"next":${next}}`;
}

/** Whether a stored clocks object holds a non-empty clock (clocks never contain quotes). */
function hasClock(clocks: string): boolean {
  return /":"[^"]/.test(clocks);
}
