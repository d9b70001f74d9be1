import type SQLite from 'better-sqlite3-multiple-ciphers';
import { rollupSums } from './migrations/0004_overview_rollups';

/**
 * The overview's rollups (overview_slots, overview_days, migration 0004) worked out for a whole
 * business at once: for a bulk load (a device's first sync) that writes its rows with the
 * rollups' triggers set aside, one grouped pass per rollup instead of an upsert per row. The
 * result is what the triggers would have left (test/sync/bulk-derived.test.ts holds it to that).
 */

/** The triggers that keep the rollups one row at a time, as a GLOB over trigger names. */
export const OVERVIEW_ROLLUP_TRIGGERS = '*_rollup_*';

const CLEAR = [
  'DELETE FROM overview_slots WHERE account_id = :account',
  'DELETE FROM overview_days WHERE account_id = :account',
];
const SUMS = rollupSums('account_id = :account');

/** Replaces the rollups of the account with what its rows say now. */
export function rebuildOverviewRollups(sqlite: SQLite.Database, accountId: string): void {
  for (const statement of [...CLEAR, ...SUMS]) sqlite.prepare(statement).run({ account: accountId });
}
