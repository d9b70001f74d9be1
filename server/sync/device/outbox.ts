import type { PushedChange } from '../hub/storage';
import type { RowState } from '../merge';
import { DELETED } from '../synced-table';
import { changedColumns, type LocalState } from './local-state';

/** Local changes waiting for the hub (sync_outbox), as the push sends them. */

interface Entry {
  local_seq: number;
  tbl: string;
  pk: string;
  op: 'insert' | 'update' | 'delete';
  vals: string | null;
  changed: string | null;
  hlc: string;
  /** Null for a change captured before actors were recorded. */
  actor: string | null;
}

const MAX_BATCH_BYTES = 512 * 1024;

/** The oldest waiting changes, at most `limit` of them and about 512 KB. */
export function pendingBatch(local: LocalState, accountId: string, limit: number): PushedChange[] {
  const entries = local
    .statement(
      'SELECT local_seq, tbl, pk, op, vals, changed, hlc, actor FROM sync_outbox WHERE account_id = ? ORDER BY local_seq LIMIT ?',
    )
    .all(accountId, limit) as Entry[];
  const batch: PushedChange[] = [];
  let bytes = 0;
  for (const entry of entries) {
    bytes += (entry.vals?.length ?? 0) + entry.pk.length + 64;
    if (batch.length > 0 && bytes > MAX_BATCH_BYTES) break;
    batch.push({ local_seq: entry.local_seq, table: entry.tbl, pk: entry.pk, state: stateOf(entry) });
  }
  return batch;
}

/** The change as a row state; each column names the change's actor (the hub adds the device). */
function stateOf(entry: Entry): RowState {
  const by = (columns: string[]) =>
    entry.actor ? { a: Object.fromEntries(columns.map((column) => [column, { by: entry.actor! }])) } : {};
  if (entry.op === 'delete') return { v: { [DELETED]: 1 }, c: { [DELETED]: entry.hlc }, ...by([DELETED]) };
  const all = JSON.parse(entry.vals ?? '{}') as Record<string, unknown>;
  const v: Record<string, unknown> = {};
  const c: Record<string, string> = {};
  const columns = changedColumns(entry);
  for (const column of columns) {
    v[column] = column === DELETED ? 0 : all[column];
    c[column] = entry.hlc;
  }
  return { v, c, ...by(columns) };
}

export function pendingCount(local: LocalState, accountId: string): number {
  return (
    local.statement('SELECT count(*) AS n FROM sync_outbox WHERE account_id = ?').get(accountId) as {
      n: number;
    }
  ).n;
}

/**
 * Drops the changes the hub holds, keeping their clocks: until the hub's merged row comes back in
 * a pull, they are what tells an older incoming value from a newer one. Call in a transaction.
 */
export function acknowledge(
  local: LocalState,
  accountId: string,
  upTo: number,
  pushed: PushedChange[] = [],
): number {
  if (pushed.length > 0 && upTo <= pushed.at(-1)!.local_seq)
    return acknowledgePushed(local, accountId, upTo, pushed);
  const entries = local
    .statement(
      'SELECT local_seq, tbl, pk, op, vals, changed, hlc FROM sync_outbox WHERE account_id = ? AND local_seq <= ? ORDER BY local_seq',
    )
    .all(accountId, upTo) as Entry[];
  const clocks = new Map<string, { tbl: string; pk: string; clocks: Record<string, string> }>();
  for (const entry of entries) {
    const id = `${entry.tbl}\u0000${entry.pk}`;
    let row = clocks.get(id);
    if (!row) {
      row = { tbl: entry.tbl, pk: entry.pk, clocks: local.clocks(entry.tbl, entry.pk) };
      clocks.set(id, row);
    }
    for (const column of changedColumns(entry)) {
      if ((row.clocks[column] ?? '') < entry.hlc) row.clocks[column] = entry.hlc;
    }
  }
  local.statement('DELETE FROM sync_outbox WHERE account_id = ? AND local_seq <= ?').run(accountId, upTo);
  for (const row of clocks.values()) local.saveClocks(row.tbl, row.pk, row.clocks);
  return entries.length;
}

/**
 * acknowledge, for the batch just pushed (`pendingBatch`, the oldest waiting changes): the clocks
 * come from the batch as it was sent, so the outbox is not read again, nor each value parsed.
 */
function acknowledgePushed(
  local: LocalState,
  accountId: string,
  upTo: number,
  pushed: PushedChange[],
): number {
  const rows = new Map<string, { tbl: string; pk: string; clocks: Record<string, string> }>();
  let count = 0;
  for (const change of pushed) {
    if (change.local_seq > upTo) break;
    count++;
    const id = `${change.table}\u0000${change.pk}`;
    let row = rows.get(id);
    if (!row) {
      row = { tbl: change.table, pk: change.pk, clocks: local.storedClocks(change.table, change.pk) };
      rows.set(id, row);
    }
    for (const [column, clock] of Object.entries(change.state.c)) {
      if ((row.clocks[column] ?? '') < clock) row.clocks[column] = clock;
    }
  }
  for (const row of rows.values()) local.withPending(row.clocks, row.tbl, row.pk, upTo);
  local.statement('DELETE FROM sync_outbox WHERE account_id = ? AND local_seq <= ?').run(accountId, upTo);
  for (const row of rows.values()) local.saveClocks(row.tbl, row.pk, row.clocks);
  return count;
}
