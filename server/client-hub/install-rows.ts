import { sql } from 'kysely';
import type { AppContext } from '../context';
import { applyOutsideActions } from '../domain/crew-actions';
import { notSent, type SyncedTable } from '../sync/synced-table';
import { SYNCED_TABLES } from '../sync/tables';
import type { ClientHubRows, Row } from './rows';

const TABLES = new Map(SYNCED_TABLES.map((table) => [table.name, table]));
const ACCOUNT = '__account';

/**
 * The client hub's rows on an install serving its own page (docs/client-hub.md, "Serving"): the
 * synced tables of its SQLite, as sync sends them (device-local and derived columns left out), each
 * row's business found the way change capture finds it. A recorded action is applied at once by
 * the applier the sync round uses; a fault while applying leaves it pending for the next round.
 */
export function installRows(ctx: AppContext, onApplyError: (error: unknown) => void): ClientHubRows {
  const select = async (accountId: string | null, name: string, column: string, values: string[]) => {
    const table = syncedTable(name);
    if (!/^[a-z_]+$/.test(column)) throw new Error(`Not a column name: ${column}`);
    if (values.length === 0) return [];
    const account = sql.raw(table.account('R'));
    const rows = await sql<Row>`SELECT R.*, ${account} AS ${sql.ref(ACCOUNT)} FROM ${sql.table(name)} AS R
      WHERE ${sql.ref(`R.${column}`)} IN (${sql.join(values)})
      ${accountId === null ? sql`` : sql`AND ${account} = ${accountId}`}`.execute(ctx.db);
    const hidden = notSent(table);
    return rows.rows.map((row) => ({
      accountId: String(row[ACCOUNT]),
      row: Object.fromEntries(
        Object.entries(row).filter(([column]) => column !== ACCOUNT && !hidden.has(column)),
      ),
    }));
  };
  return {
    readRow: async (accountId, table, id) => (await select(accountId, table, 'id', [id]))[0],
    readRows: async (accountId, table, where) =>
      (await select(accountId, table, where.column, where.values)).map((found) => found.row),
    writeRow: async (accountId, name, row) => {
      syncedTable(name);
      await ctx.db.transaction().execute(async (tx) => {
        await tx
          .insertInto(name as 'client_actions')
          .values(row as never)
          .execute();
      });
      if (name !== 'client_actions' && name !== 'crew_actions') return;
      await applyOutsideActions(ctx, accountId).catch(onApplyError);
    },
  };
}

function syncedTable(name: string): SyncedTable {
  const table = TABLES.get(name);
  if (!table) throw new Error(`Not a synced table: ${name}`);
  return table;
}
