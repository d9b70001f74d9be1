/** What the sync knows of a synced table (the list is tables.ts), and the rules read from it. */

/** The pseudo-column that carries a row's deletion; a later re-insert of the same key clears it. */
export const DELETED = '_deleted';

export interface SyncedTable {
  name: string;
  /** Primary-key columns, in order; a row's key on the wire is the JSON array of their values. */
  pk: string[];
  /** SQL giving the row's account from the trigger row `R` (NEW or OLD). */
  account: (r: string) => string;
  /** Columns never sent: device-local state and secrets. Recomputed ones are in `derived`. */
  local?: string[];
  /** Columns recomputed from synced rows after every apply (totals, balances), never sent. */
  derived?: string[];
  /** Status columns merged by rank first, then by clock (docs/sync.md, "Statuses"). */
  ranks?: Record<string, Record<string, number>>;
  /**
   * Columns telling of a ranked status (a client action's outcome: applied, or why it was refused),
   * by that status column: they merge by the rank of the status in the same state first, so they
   * never tell of a status that lost (docs/sync.md, "Statuses").
   */
  rankedWith?: Record<string, string>;
  /** Columns holding the id of a customer or team member, followed through merged records. */
  refs?: Record<string, 'customers' | 'team_members'>;
  /** Rows may only be added: the hub keeps the first state of a row and ignores later changes. */
  appendOnly?: boolean;
  /**
   * A column no two live rows of an account may share (a customer's e-mail). When a second one
   * reaches the hub, the hub merges it into the first and tells every device (docs/sync.md).
   */
  naturalKey?: string;
  /**
   * Columns a device's push may write (docs/sync.md, "What a device may write"): what the owner's
   * session, the API and the install's own work change on any device. A pushed column outside this
   * list and `operator` is refused; the deletion marker is writable unless `operator` names it.
   */
  writable: string[];
  /**
   * Columns only the operator changes (the CLI on the hub's folder): they flow hub → devices, and a
   * push from a paired device that changes them is refused. A row the hub does not hold yet brings
   * them (a business arriving on a hosted hub), and the hub's own install pushes them.
   */
  operator?: string[];
  /**
   * Columns naming another row of the business, with the tables that row may be in: a push whose
   * row names one of another business is refused. `ownedVia` is the one a row without an
   * account_id belongs to its business through: the hub must hold that parent for the business.
   */
  parents?: Record<string, string[]>;
  ownedVia?: string;
  /**
   * Each row records an owner's merge of one record of this table into another (columns from_id,
   * to_id): the hub writes the alias an e-mail merge writes, so every device makes the same merge.
   */
  recordsMergeOf?: 'customers';
}

/** The pull's pseudo-table of merges: pk [table, from_id], values { to_id }. */
/** `account` of a table that carries its own account_id. */
export const ownAccount = (r: string) => `${r}.account_id`;

export const ALIAS_TABLE = '_alias';

/** What a merged-away record never passes to the record it merged into. */
export const IDENTITY_COLUMNS = new Set(['id', 'created_at', '_deleted']);

export function notSent(table: SyncedTable): Set<string> {
  return new Set([...(table.local ?? []), ...(table.derived ?? [])]);
}

const writable = new WeakMap<SyncedTable, Set<string>>();
const operatorOnly = new WeakMap<SyncedTable, Set<string>>();

/** Columns a device's push may change in a table: its writable list and the deletion marker. */
export function writableColumns(table: SyncedTable): Set<string> {
  let columns = writable.get(table);
  if (!columns) {
    const operator = operatorColumns(table);
    columns = new Set([...table.writable, DELETED].filter((column) => !operator.has(column)));
    writable.set(table, columns);
  }
  return columns;
}

/** Columns only the hub's operator changes (`operator`), as a set: a push checks each column against it. */
export function operatorColumns(table: SyncedTable): Set<string> {
  let columns = operatorOnly.get(table);
  if (!columns) {
    columns = new Set(table.operator ?? []);
    operatorOnly.set(table, columns);
  }
  return columns;
}
