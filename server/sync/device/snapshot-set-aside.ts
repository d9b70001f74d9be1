import type SQLite from 'better-sqlite3-multiple-ciphers';
import { CUSTOMER_FIGURES_TRIGGERS, rebuildCustomerFigures } from '../../db/customer-figures';
import { OVERVIEW_ROLLUP_TRIGGERS, rebuildOverviewRollups } from '../../db/overview-rollups';
import { PAYMENT_TAX_SHARES_TRIGGERS, rebuildPaymentTaxShares } from '../../db/payment-tax-shares';
import { SYNCED_TABLES } from '../tables';

/**
 * What a first sync's bulk load (device/snapshot-join.ts) does without while it writes the
 * business, and how it is put back: each row then costs its own insert and nothing else.
 *
 * - The business tables' indexes that no constraint needs: one sort per index once its table is
 *   in costs a fraction of keeping each B-tree in order a row at a time.
 * - Per-row triggers whose tables are rebuilt in one set-based pass per figure at the end: the
 *   customer figures, the payments' tax shares, the overview rollups and the events' arrival
 *   order. The capture triggers are off while applying anyway; asking them costs a call per row.
 *   The history triggers fire on updates only, and a load inserts.
 *
 * Everything happens inside the load's transaction, so a failed load leaves them as they were.
 */

/** GLOBs over the names of the triggers set aside. */
const TRIGGERS = [
  'sync_capture_*',
  `${CUSTOMER_FIGURES_TRIGGERS}*`,
  `${PAYMENT_TAX_SHARES_TRIGGERS}*`,
  OVERVIEW_ROLLUP_TRIGGERS,
  'event_arrival',
];

export interface SetAside {
  /** Per table, the statements that recreate its indexes. */
  indexes: Map<string, string[]>;
  triggers: string[];
}

export function setAsideForLoad(sqlite: SQLite.Database): SetAside {
  const tables = SYNCED_TABLES.map((t) => t.name);
  const objects = sqlite
    .prepare(
      `SELECT type, name, tbl_name AS tbl, sql FROM sqlite_master WHERE tbl_name IN (${tables.map(() => '?').join(', ')})
       AND ((type = 'index' AND sql IS NOT NULL AND sql NOT LIKE 'CREATE UNIQUE%')
         OR (type = 'trigger' AND (${TRIGGERS.map(() => 'name GLOB ?').join(' OR ')})))`,
    )
    .all(...tables, ...TRIGGERS) as Array<{
    type: 'index' | 'trigger';
    name: string;
    tbl: string;
    sql: string;
  }>;
  const setAside: SetAside = { indexes: new Map(), triggers: [] };
  for (const object of objects) {
    sqlite.exec(`DROP ${object.type.toUpperCase()} ${object.name}`);
    if (object.type === 'trigger') {
      setAside.triggers.push(object.sql);
    } else {
      const list = setAside.indexes.get(object.tbl) ?? [];
      list.push(object.sql);
      setAside.indexes.set(object.tbl, list);
    }
  }
  return setAside;
}

/**
 * Indexes only the load has, while it lasts: each invoice's payments are summed as the invoice
 * goes in, in invoice order, which the payments' own order is not; read from the index alone, the
 * sums touch its pages in order instead of a payment row's page at random each.
 */
const LOAD_INDEXES: Record<string, { name: string; columns: string }> = {
  payments: { name: 'snapshot_load_payments_paid', columns: 'invoice_id, amount_cents' },
};

/** Recreates a table's indexes once its rows are in (later lookups of the load may use them). */
export function restoreIndexes(sqlite: SQLite.Database, setAside: SetAside, table: string): void {
  for (const statement of setAside.indexes.get(table) ?? []) sqlite.exec(statement);
  setAside.indexes.delete(table);
  const load = LOAD_INDEXES[table];
  if (load) sqlite.exec(`CREATE INDEX IF NOT EXISTS ${load.name} ON ${table} (${load.columns})`);
}

/** After the last row: every index and trigger back, and what the triggers would have written. */
export function restoreAfterLoad(sqlite: SQLite.Database, setAside: SetAside, accountId: string): void {
  for (const table of [...setAside.indexes.keys()]) restoreIndexes(sqlite, setAside, table);
  for (const { name } of Object.values(LOAD_INDEXES)) sqlite.exec(`DROP INDEX IF EXISTS ${name}`);
  for (const statement of setAside.triggers) sqlite.exec(statement);
  rebuildCustomerFigures(sqlite, accountId);
  rebuildPaymentTaxShares(sqlite, accountId);
  rebuildOverviewRollups(sqlite, accountId);
  // Arrival in key order, as the rows came in.
  sqlite
    .prepare(
      'INSERT OR IGNORE INTO event_arrivals (event_id) SELECT id FROM events WHERE account_id = ? ORDER BY id',
    )
    .run(accountId);
}
