import type { Capture } from '../capture';
import { recordPulledChanges } from '../history';
import type { PulledRow } from '../hub/storage';
import { type RowState, winningColumns } from '../merge';
import { localOwner, localOwnerOfId } from '../owner';
import { ALIAS_TABLE, DELETED, type SyncedTable } from '../synced-table';
import { SYNCED_TABLES, syncedTable } from '../tables';
import { noteForDecisions, type Touched } from './decisions';
import { recomputeDerived } from './derived';
import type { LocalState } from './local-state';

/**
 * Applies rows pulled from the hub to this device's tables (docs/sync.md, "Applying"). Runs with
 * capture off (the rows came from the hub; sending them back would echo) and foreign keys off (a
 * page may hold a job before the customer it names, which a later page brings).
 */

/** Rows that cannot outlive their parent: deleting the parent here deletes them too. */
const CHILDREN: Record<string, Array<[string, string]>> = {
  invoices: [
    ['document_lines', 'document_id'],
    ['document_taxes', 'document_id'],
  ],
  quotes: [
    ['document_lines', 'document_id'],
    ['document_taxes', 'document_id'],
  ],
  jobs: [['job_assignees', 'job_id']],
  customers: [
    ['customer_tags', 'customer_id'],
    ['customer_notes', 'customer_id'],
    ['properties', 'customer_id'],
  ],
};

export class UndecidedDuplicate extends Error {
  constructor(
    readonly table: string,
    readonly localId: string,
  ) {
    super(`${table} ${localId} shares its natural key with a row from the hub`);
  }
}

export interface ApplyResult {
  applied: number;
  /** Rows waiting in sync_deferred after this page. */
  deferred: number;
}

export function applyPulledRows(
  local: LocalState,
  capture: Capture,
  accountId: string,
  rows: PulledRow[],
  now: string,
): ApplyResult {
  const touched: Touched = {
    documents: new Set(),
    jobs: new Set(),
    quotes: new Set(),
    deletedCustomers: new Set(),
    placeOwners: new Set(),
  };
  let applied = 0;

  // Once a page, not once a row: each applied row asks who owns it and its parents.
  const prepare = (text: string) => local.statement(text);
  const other = (owner: unknown) => owner !== undefined && owner !== accountId;

  const aliasOf = (tbl: string, id: unknown): string | undefined =>
    (
      local.statement('SELECT to_id FROM sync_aliases WHERE tbl = ? AND from_id = ?').get(tbl, id) as
        | { to_id: string }
        | undefined
    )?.to_id;

  function keyOf(table: SyncedTable, values: Record<string, unknown>, fallback: unknown[]): unknown[] {
    return table.pk.map((column, i) => (column in values ? values[column] : fallback[i]));
  }

  function deleteRow(table: SyncedTable, key: unknown[]): void {
    local.statement(`DELETE FROM ${table.name} WHERE ${local.where(table)}`).run(...key);
    for (const [child, column] of CHILDREN[table.name] ?? []) {
      local.statement(`DELETE FROM ${child} WHERE ${column} = ?`).run(key[0]);
    }
  }

  function insertRow(table: SyncedTable, values: Record<string, unknown>): void {
    const columns = local.columnsOf(table);
    const row: Record<string, unknown> = { ...local.requiredDefaultsOf(table) };
    for (const [column, value] of Object.entries(values)) if (columns.has(column)) row[column] = value;
    const names = Object.keys(row);
    local
      .statement(
        `INSERT INTO ${table.name} (${names.join(', ')}) VALUES (${names.map(() => '?').join(', ')})`,
      )
      .run(...names.map((n) => sqlValue(row[n])));
  }

  /** Moves every reference from a merged-away record to the one it merged into. */
  function repoint(tbl: string, from: string, to: string): void {
    for (const table of SYNCED_TABLES) {
      for (const [column, target] of Object.entries(table.refs ?? {})) {
        if (target !== tbl) continue;
        if (table.pk.includes(column)) {
          local
            .statement(`UPDATE OR IGNORE ${table.name} SET ${column} = ? WHERE ${column} = ?`)
            .run(to, from);
          local.statement(`DELETE FROM ${table.name} WHERE ${column} = ?`).run(from);
        } else {
          local.statement(`UPDATE ${table.name} SET ${column} = ? WHERE ${column} = ?`).run(to, from);
        }
      }
    }
  }

  function alias(tbl: string, from: string, to: string): void {
    local
      .statement('INSERT OR REPLACE INTO sync_aliases (tbl, from_id, to_id) VALUES (?, ?, ?)')
      .run(tbl, from, to);
    local.statement('UPDATE sync_aliases SET to_id = ? WHERE tbl = ? AND to_id = ?').run(to, tbl, from);
  }

  /** The hub merged one record into another (same natural key): every device does the same. */
  function applyAlias(row: PulledRow): void {
    const [tbl, from] = JSON.parse(row.pk) as [string, string];
    const to = String(row.state.v.to_id);
    const table = syncedTable(tbl);
    if (!table) return;
    alias(tbl, from, to);
    repoint(tbl, from, to);
    deleteRow(table, [from]);
    local.statement('DELETE FROM sync_clocks WHERE tbl = ? AND pk = ?').run(tbl, JSON.stringify([from]));
  }

  /**
   * A row whose natural key another local row holds. Either the hub has not seen that other row
   * yet (it waits to be pushed from here) or its deletion or merge comes later in hub order (rows
   * are pulled at their latest change). The row waits in sync_deferred and is tried again.
   */
  function refuseUndecidedDuplicate(table: SyncedTable, id: unknown, values: Record<string, unknown>): void {
    const key = table.naturalKey ? values[table.naturalKey] : undefined;
    if (key === null || key === undefined) return;
    const other = local
      .statement(`SELECT id FROM ${table.name} WHERE account_id = ? AND ${table.naturalKey} = ? AND id <> ?`)
      .get(accountId, key, id) as { id: string } | undefined;
    if (other) throw new UndecidedDuplicate(table.name, other.id);
  }

  function applyState(table: SyncedTable, key: unknown[], incoming: RowState): void {
    const pk = JSON.stringify(key);
    const { state: base, exists } = local.state(table, pk, key);
    const winners = winningColumns(table, base, incoming);
    // Checked only when something would be written: most rows of a page are echoes of this
    // install's own pushes, which change nothing here.
    if (winners.length === 0 || namesAnotherBusiness(table, key, incoming.v, exists)) return;
    const clocks = { ...(base?.c ?? {}) };
    for (const column of winners) clocks[column] = incoming.c[column] ?? '';
    const deleted = winners.includes(DELETED) ? incoming.v[DELETED] === 1 : base?.v[DELETED] === 1;
    const columns = local.columnsOf(table);
    const written = winners.filter((column) => column !== DELETED && columns.has(column));
    if (!deleted && table.naturalKey && written.includes(table.naturalKey)) {
      refuseUndecidedDuplicate(table, key[0], incoming.v);
    }
    if (deleted) {
      if (exists) deleteRow(table, key);
    } else if (exists) {
      if (written.length > 0) {
        recordPulledChanges(local.sqlite, {
          table: table.name,
          accountId,
          id: String(key[0]),
          before: base?.v ?? {},
          base,
          incoming,
          columns: written,
          ownNode: capture.hlc.node,
          now,
        });
        local
          .statement(
            `UPDATE ${table.name} SET ${written.map((c) => `${c} = ?`).join(', ')} WHERE ${local.where(table)}`,
          )
          .run(...written.map((c) => sqlValue(incoming.v[c])), ...key);
      }
    } else {
      const values = { ...(base?.v ?? {}), ...incoming.v };
      delete values[DELETED];
      insertRow(table, values);
    }
    local.saveClocks(table.name, pk, clocks);
    applied++;
    noteTouched(table, key, incoming, exists, deleted);
  }

  function noteTouched(
    table: SyncedTable,
    key: unknown[],
    state: RowState,
    existed: boolean,
    deleted: boolean,
  ) {
    const id = String(key[0]);
    switch (table.name) {
      case 'invoices':
      case 'quotes':
        touched.documents.add(id);
        if (table.name === 'quotes') touched.quotes.add(id);
        break;
      case 'document_lines':
      case 'document_taxes':
        touched.documents.add(id);
        break;
      case 'payments': {
        const invoice = state.v.invoice_id ?? local.row(table, key)?.invoice_id;
        if (invoice) touched.documents.add(String(invoice));
        break;
      }
      case 'jobs':
        touched.jobs.add(id);
        break;
      case 'customers':
        if (deleted) touched.deletedCustomers.add(id);
        break;
      case 'properties': {
        const customer = state.v.customer_id ?? local.row(table, key)?.customer_id;
        if (customer) touched.placeOwners.add(String(customer));
        break;
      }
      case 'events':
        if (!existed && !deleted)
          local.statement('INSERT OR IGNORE INTO sync_event_fanout (event_id) VALUES (?)').run(id);
        break;
    }
  }

  /**
   * A pulled row that would overwrite, move or point into a row of another business this folder
   * holds. The hub refuses such pushes (push-authorization.ts), but only among the businesses it
   * holds: the other business here may sync with another hub, or the row may predate the check.
   */
  function namesAnotherBusiness(
    table: SyncedTable,
    key: unknown[],
    v: Record<string, unknown>,
    exists: boolean,
  ): boolean {
    if (table.name === 'accounts' && key[0] !== accountId) return true;
    // `exists` was read in this transaction: a row this folder does not hold has no owner here.
    if (exists && other(localOwner(prepare, table, key))) return true;
    if (table.writable.includes('account_id') && 'account_id' in v && v.account_id !== accountId) return true;
    return Object.entries(table.parents ?? {}).some(([column, targets]) => {
      const id = column in v ? v[column] : key[table.pk.indexOf(column)];
      return typeof id === 'string' && other(localOwnerOfId(prepare, targets, id));
    });
  }

  function applyRow(row: PulledRow): void {
    if (row.table === ALIAS_TABLE) {
      applyAlias(row);
      return;
    }
    const table = syncedTable(row.table);
    if (!table) return;
    let latest = '';
    for (const clock of Object.values(row.state.c)) if (clock > latest) latest = clock;
    capture.hlc.observe(latest);
    const columns = local.columnsOf(table);
    const v: Record<string, unknown> = {};
    const c: Record<string, string> = {};
    for (const [column, value] of Object.entries(row.state.v)) {
      if (column !== DELETED && !columns.has(column)) continue;
      v[column] = value;
      if (row.state.c[column] !== undefined) c[column] = row.state.c[column]!;
    }
    for (const [column, target] of Object.entries(table.refs ?? {})) {
      const to = v[column] === undefined ? undefined : aliasOf(target, v[column]);
      if (to) v[column] = to;
    }
    const key = keyOf(table, v, JSON.parse(row.pk) as unknown[]);
    // A merged-away record's own row is history: the hub has merged its changes into the survivor.
    if (table.naturalKey && aliasOf(table.name, key[0])) return;
    applyState(table, key, { v, c, ...(row.state.a ? { a: row.state.a } : {}) });
  }

  for (const row of rows) if (!tryRow(row)) defer(row);
  // Held-back rows go in after the page: what held them back (a deletion, a merge) may be in it.
  for (let progress = true; progress; ) {
    progress = false;
    for (const row of deferredRows()) {
      if (!tryRow(row)) continue;
      local
        .statement('DELETE FROM sync_deferred WHERE account_id = ? AND tbl = ? AND pk = ?')
        .run(accountId, row.table, row.pk);
      progress = true;
    }
  }
  recomputeDerived(local, touched.documents);
  noteForDecisions(local, accountId, touched);
  return { applied, deferred: deferredRows().length };

  function deferredRows(): PulledRow[] {
    return (
      local
        .statement('SELECT tbl, pk, seq, state FROM sync_deferred WHERE account_id = ? ORDER BY seq')
        .all(accountId) as Array<{ tbl: string; pk: string; seq: number; state: string }>
    ).map((d) => ({ seq: d.seq, table: d.tbl, pk: d.pk, state: JSON.parse(d.state) }));
  }

  function defer(row: PulledRow): void {
    local
      .statement(
        `INSERT INTO sync_deferred (account_id, tbl, pk, seq, state) VALUES (?, ?, ?, ?, ?)
         ON CONFLICT (account_id, tbl, pk) DO UPDATE SET seq = excluded.seq, state = excluded.state`,
      )
      .run(accountId, row.table, row.pk, row.seq, JSON.stringify(row.state));
  }

  /** Applies a row, or leaves it for later when a local record still holds its natural key. */
  function tryRow(row: PulledRow): boolean {
    try {
      applyRow(row);
      return true;
    } catch (error) {
      if (error instanceof UndecidedDuplicate) return false;
      throw error;
    }
  }
}

export function sqlValue(value: unknown): unknown {
  if (typeof value === 'boolean') return value ? 1 : 0;
  if (value !== null && typeof value === 'object') return JSON.stringify(value);
  return value ?? null;
}
