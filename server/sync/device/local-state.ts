import type SQLite from 'better-sqlite3-multiple-ciphers';
import { sentColumns } from '../capture';
import type { RowState } from '../merge';
import { DELETED, type SyncedTable } from '../synced-table';

/**
 * What a device knows of one row: its values in the business table, and the clocks of those
 * values (sync_clocks, plus the clocks of local changes the hub has not acknowledged yet).
 */
export class LocalState {
  private readonly columns = new Map<string, Set<string>>();
  private readonly sent = new Map<string, string[]>();
  private readonly defaults = new Map<string, Record<string, unknown>>();
  private readonly statements = new Map<string, SQLite.Statement>();

  constructor(readonly sqlite: SQLite.Database) {}

  statement(text: string): SQLite.Statement {
    let statement = this.statements.get(text);
    if (!statement) {
      statement = this.sqlite.prepare(text);
      this.statements.set(text, statement);
    }
    return statement;
  }

  /** The table's live columns (a device on an older schema ignores columns it does not have). */
  columnsOf(table: SyncedTable): Set<string> {
    let set = this.columns.get(table.name);
    if (!set) {
      const info = this.sqlite.prepare(`PRAGMA table_info(${table.name})`).all() as Array<{ name: string }>;
      set = new Set(info.map((c) => c.name));
      this.columns.set(table.name, set);
    }
    return set;
  }

  /**
   * A value for each NOT NULL column without a default: a pulled row lacks the columns that are
   * never sent (derived figures, device-local state), which are filled in or recomputed here.
   */
  requiredDefaultsOf(table: SyncedTable): Record<string, unknown> {
    let found = this.defaults.get(table.name);
    if (!found) {
      const info = this.sqlite.prepare(`PRAGMA table_info(${table.name})`).all() as Array<{
        name: string;
        type: string;
        notnull: number;
        dflt_value: string | null;
      }>;
      found = Object.fromEntries(
        info
          .filter((c) => c.notnull && c.dflt_value === null)
          .map((c) => [c.name, /INT/i.test(c.type) ? 0 : '']),
      );
      this.defaults.set(table.name, found);
    }
    return found;
  }

  sentColumnsOf(table: SyncedTable): string[] {
    let list = this.sent.get(table.name);
    if (!list) {
      list = sentColumns(this.sqlite, table);
      this.sent.set(table.name, list);
    }
    return list;
  }

  where(table: SyncedTable): string {
    return table.pk.map((c) => `${c} = ?`).join(' AND ');
  }

  row(table: SyncedTable, key: unknown[]): Record<string, unknown> | undefined {
    return this.statement(`SELECT * FROM ${table.name} WHERE ${this.where(table)}`).get(...key) as
      | Record<string, unknown>
      | undefined;
  }

  clocks(table: string, pk: string): Record<string, string> {
    return this.withPending(this.storedClocks(table, pk), table, pk, 0);
  }

  /** The clocks of a row's acknowledged changes. */
  storedClocks(table: string, pk: string): Record<string, string> {
    const stored = this.statement('SELECT clocks FROM sync_clocks WHERE tbl = ? AND pk = ?').get(table, pk) as
      | { clocks: string }
      | undefined;
    return stored ? JSON.parse(stored.clocks) : {};
  }

  /** `clocks` with those of the row's changes waiting in the outbox after `afterSeq`. */
  withPending(
    clocks: Record<string, string>,
    table: string,
    pk: string,
    afterSeq: number,
  ): Record<string, string> {
    const pending = this.statement(
      'SELECT op, vals, changed, hlc FROM sync_outbox WHERE tbl = ? AND pk = ? AND local_seq > ?',
    ).all(table, pk, afterSeq) as Array<{
      op: string;
      vals: string | null;
      changed: string | null;
      hlc: string;
    }>;
    for (const entry of pending) {
      for (const column of changedColumns(entry)) {
        if (!clocks[column] || clocks[column] < entry.hlc) clocks[column] = entry.hlc;
      }
    }
    return clocks;
  }

  saveClocks(table: string, pk: string, clocks: Record<string, string>): void {
    const kept = Object.fromEntries(Object.entries(clocks).filter(([, clock]) => clock !== ''));
    if (Object.keys(kept).length === 0) {
      this.statement('DELETE FROM sync_clocks WHERE tbl = ? AND pk = ?').run(table, pk);
      return;
    }
    this.statement(
      'INSERT INTO sync_clocks (tbl, pk, clocks) VALUES (?, ?, ?) ON CONFLICT (tbl, pk) DO UPDATE SET clocks = excluded.clocks',
    ).run(table, pk, JSON.stringify(kept));
  }

  /** The row as a state: its sent columns and their clocks; a row gone but known deleted keeps its tombstone. */
  state(table: SyncedTable, pk: string, key: unknown[]): { state: RowState | undefined; exists: boolean } {
    const row = this.row(table, key);
    const clocks = this.clocks(table.name, pk);
    if (!row) {
      if (clocks[DELETED] === undefined) return { state: undefined, exists: false };
      return { state: { v: { [DELETED]: 1 }, c: { [DELETED]: clocks[DELETED] } }, exists: false };
    }
    const v: Record<string, unknown> = { [DELETED]: 0 };
    for (const column of this.sentColumnsOf(table)) v[column] = row[column];
    return { state: { v, c: clocks }, exists: true };
  }
}

/** The columns an outbox entry sets: all of an insert, the listed ones of an update, the tombstone of a delete. */
export function changedColumns(entry: { op: string; vals: string | null; changed: string | null }): string[] {
  if (entry.op === 'delete') return [DELETED];
  if (entry.op === 'insert') return [...Object.keys(JSON.parse(entry.vals ?? '{}')), DELETED];
  return entry.changed ? entry.changed.split(',') : [];
}
