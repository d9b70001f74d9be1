import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { SyncedTable } from './synced-table';
import { syncedTable } from './tables';

/**
 * The business a row of an install's own tables belongs to, by its table's account rule; undefined
 * when the install does not hold the row. The embedded hub asks it before taking a pushed row, and
 * every device before applying a pulled one: a folder may hold several businesses, and one
 * business's rows must never overwrite, move or point into another's.
 */
export function localOwner(
  prepare: (text: string) => SQLite.Statement,
  table: SyncedTable,
  key: unknown[],
): string | undefined {
  const row = prepare(ownerQuery(table)).get(...key) as { owner: string | null } | undefined;
  return row?.owner ?? undefined;
}

const ownerQueries = new WeakMap<SyncedTable, string>();

/** Built once per table: the hub asks it for every row a push names, and for each row's parents. */
function ownerQuery(table: SyncedTable): string {
  let text = ownerQueries.get(table);
  if (!text) {
    const where = table.pk.map((column) => `R.${column} = ?`).join(' AND ');
    text = `SELECT ${table.account('R')} AS owner FROM ${table.name} R WHERE ${where}`;
    ownerQueries.set(table, text);
  }
  return text;
}

/** The business of the first of `tables` that holds a row with this id (a parent a row names). */
export function localOwnerOfId(
  prepare: (text: string) => SQLite.Statement,
  tables: string[],
  id: string,
): string | undefined {
  for (const name of tables) {
    const owner = localOwner(prepare, syncedTable(name)!, [id]);
    if (owner !== undefined) return owner;
  }
  return undefined;
}
