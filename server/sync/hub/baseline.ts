import type SQLite from 'better-sqlite3-multiple-ciphers';
import { sentColumns } from '../capture';
import { DELETED } from '../synced-table';
import { SYNCED_TABLES } from '../tables';

/**
 * The first pairing of an install that keeps the hub in its own SQLite file (docs/sync.md, "First
 * pairing"): the business goes into hub_rows in set-based statements, inside the transaction that
 * starts its sync, instead of through the outbox and a push a row at a time. The rows end as that
 * push leaves them: every column with the empty clock (any later edit beats it), numbered 1…N in
 * table order, the counter at N. Returns N, or undefined when the hub already holds rows of the
 * business (they must be merged, which the push does).
 */
export function loadBaselineIntoHub(sqlite: SQLite.Database, accountId: string): number | undefined {
  const business = sqlite
    .prepare('SELECT last_seq FROM hub_businesses WHERE account_id = ?')
    .get(accountId) as { last_seq: number } | undefined;
  if (business?.last_seq !== 0) return undefined;
  let seq = 0;
  for (const table of SYNCED_TABLES) {
    const columns = sentColumns(sqlite, table);
    const clocks = JSON.stringify(Object.fromEntries([...columns, DELETED].map((c) => [c, ''])));
    const naturalKey = table.naturalKey
      ? `CASE WHEN typeof(R.${table.naturalKey}) = 'text' AND R.${table.naturalKey} <> '' THEN R.${table.naturalKey} END`
      : 'NULL';
    seq += sqlite
      .prepare(
        `INSERT INTO hub_rows (account_id, tbl, pk, seq, vals, clocks, natural_key)
         SELECT :account, '${table.name}', json_array(${table.pk.map((c) => `R.${c}`).join(', ')}),
           :from + row_number() OVER (),
           json_object(${columns.map((c) => `'${c}', R.${c}`).join(', ')}, '${DELETED}', 0), :clocks, ${naturalKey}
         FROM ${table.name} R WHERE ${table.account('R')} = :account`,
      )
      .run({ account: accountId, from: seq, clocks }).changes;
  }
  sqlite.prepare('UPDATE hub_businesses SET last_seq = ? WHERE account_id = ?').run(seq, accountId);
  return seq;
}
