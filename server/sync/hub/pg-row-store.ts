import type { PoolClient } from 'pg';
import type { RowState } from '../merge';
import { SYNCED_TABLES, syncedTable } from '../tables';
import type { HubRowStore } from './push-merge';
import { actorsText, type PushedChange, storedState } from './storage';

/**
 * The rows and aliases a push works on. It holds its business's counter row, so no other push
 * writes them meanwhile: what it reads once stays true for the transaction. The rows of the pushed
 * keys and of the rows they name, the aliases of the ids they name and the live rows of the natural
 * keys they carry are read in one query each first; the rows the merge writes are kept here and
 * written by `flush` in one statement, so a push of any size costs the same few round trips.
 */
export async function rowStore(
  client: PoolClient,
  accountId: string,
  changes: PushedChange[],
  nextSeq: () => number,
): Promise<HubRowStore & { flush(): Promise<void> }> {
  const key = (table: string, id: string) => `${table}\u0000${id}`;
  const rows = new Map<string, RowState | undefined>();
  /** A business holding a key, for the keys looked up across businesses so far (`rows` says this one's). */
  const owners = new Map<string, string | undefined>();
  const aliases = new Map<string, string | undefined>();
  /** Rows written by this push, by key: the last write of a key is the one stored. */
  const written = new Map<string, WrittenRow>();
  /** Stored rows by natural key (table, key) → their pks, for the natural keys looked up so far. */
  const holders = new Map<string, string[]>();

  const pushed = changes.map((change) => [change.table, change.pk] as const);
  const parents = changes.flatMap((change) => namedParents(change));
  const named = changes.flatMap((change) => aliasCandidates(change));
  const keyed = changes.flatMap((change) => naturalKeyCandidate(change));
  // The rows of every business under the pushed keys, the parents the changes name and the
  // parents the stored rows name (a change that does not carry its parent keeps it): another
  // business's key or parent refuses the push (push-authorization.ts). Values only of this
  // business's rows. One after another: a client runs one query at a time whatever it is handed.
  const existing = await client.query<{
    tbl: string;
    pk: string;
    account_id: string | null;
    vals: string | null;
    clocks: string | null;
    actors: string | null;
  }>(
    `WITH pushed (tbl, pk) AS (SELECT * FROM unnest($2::text[], $3::text[])),
     named (tbl, pk) AS (
       SELECT * FROM pushed
       UNION SELECT * FROM unnest($4::text[], $5::text[])
       UNION SELECT p.target, jsonb_build_array(r.vals::jsonb -> p.col)::text
         FROM pushed
         JOIN hub_rows r ON r.account_id = $1 AND r.tbl = pushed.tbl AND r.pk = pushed.pk
         JOIN unnest($6::text[], $7::text[], $8::text[]) AS p (tbl, col, target) ON p.tbl = r.tbl
         WHERE jsonb_typeof(r.vals::jsonb -> p.col) = 'string'
     )
     SELECT named.tbl, named.pk, r.account_id,
       CASE WHEN r.account_id = $1 THEN r.vals END AS vals,
       CASE WHEN r.account_id = $1 THEN r.clocks END AS clocks,
       CASE WHEN r.account_id = $1 THEN r.actors END AS actors
     FROM named LEFT JOIN hub_rows r ON r.tbl = named.tbl AND r.pk = named.pk`,
    [
      accountId,
      pushed.map(([t]) => t),
      pushed.map(([, pk]) => pk),
      parents.map(([t]) => t),
      parents.map(([, pk]) => pk),
      PARENT_COLUMNS.map(([t]) => t),
      PARENT_COLUMNS.map(([, column]) => column),
      PARENT_COLUMNS.map(([, , target]) => target),
    ],
  );
  const known = await client.query<{ tbl: string; from_id: string; to_id: string }>(
    `SELECT tbl, from_id, to_id FROM hub_aliases
     WHERE account_id = $1 AND (tbl, from_id) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [accountId, named.map(([t]) => t), named.map(([, id]) => id)],
  );
  const live = await client.query<{ tbl: string; natural_key: string; pk: string }>(
    `SELECT tbl, natural_key, pk FROM hub_rows
     WHERE account_id = $1 AND (tbl, natural_key) IN (SELECT * FROM unnest($2::text[], $3::text[]))`,
    [accountId, keyed.map(([t]) => t), keyed.map(([, k]) => k)],
  );
  for (const r of existing.rows) {
    const at = key(r.tbl, r.pk);
    if (r.account_id === accountId)
      rows.set(at, storedState({ vals: r.vals!, clocks: r.clocks!, actors: r.actors }));
    else if (!rows.has(at)) rows.set(at, undefined);
    if (!owners.get(at)) owners.set(at, r.account_id ?? undefined);
  }
  for (const [table, id] of named) aliases.set(key(table, id), undefined);
  for (const a of known.rows) aliases.set(key(a.tbl, a.from_id), a.to_id);
  for (const [table, naturalKey] of keyed) holders.set(key(table, naturalKey), []);
  for (const r of live.rows) holders.get(key(r.tbl, r.natural_key))?.push(r.pk);

  const storedHolders = async (table: string, naturalKey: string): Promise<string[]> => {
    const cached = holders.get(key(table, naturalKey));
    if (cached) return cached;
    const found = (
      await client.query<{ pk: string }>(
        'SELECT pk FROM hub_rows WHERE account_id = $1 AND tbl = $2 AND natural_key = $3',
        [accountId, table, naturalKey],
      )
    ).rows.map((r) => r.pk);
    holders.set(key(table, naturalKey), found);
    return found;
  };

  return {
    owner: async (table, values) => {
      const pk = JSON.stringify(values);
      const at = key(table.name, pk);
      if (rows.get(at)) return accountId;
      if (!owners.has(at)) {
        const found = await client.query<{ account_id: string }>(
          'SELECT account_id FROM hub_rows WHERE tbl = $1 AND pk = $2 ORDER BY account_id = $3 DESC LIMIT 1',
          [table.name, pk, accountId],
        );
        owners.set(at, found.rows[0]?.account_id);
      }
      return owners.get(at);
    },
    get: async (table, pk) => {
      if (rows.has(key(table, pk))) return rows.get(key(table, pk));
      const row = (
        await client.query<{ vals: string; clocks: string; actors: string | null }>(
          'SELECT vals, clocks, actors FROM hub_rows WHERE account_id = $1 AND tbl = $2 AND pk = $3',
          [accountId, table, pk],
        )
      ).rows[0];
      const state = row && storedState(row);
      rows.set(key(table, pk), state);
      return state;
    },
    put: async (table, pk, state, naturalKey) => {
      written.set(key(table, pk), { table, pk, seq: nextSeq(), state, naturalKey });
      rows.set(key(table, pk), state);
    },
    findLive: async (table, naturalKey, pk) => {
      for (const row of written.values()) {
        if (row.table === table && row.naturalKey === naturalKey && row.pk !== pk) return row.pk;
      }
      // A stored holder this push rewrote holds the key it was written with, checked above.
      return (await storedHolders(table, naturalKey)).find(
        (holder) => holder !== pk && !written.has(key(table, holder)),
      );
    },
    aliasOf: async (table, id) => {
      if (aliases.has(key(table, id))) return aliases.get(key(table, id));
      const to = (
        await client.query<{ to_id: string }>(
          'SELECT to_id FROM hub_aliases WHERE account_id = $1 AND tbl = $2 AND from_id = $3',
          [accountId, table, id],
        )
      ).rows[0]?.to_id;
      aliases.set(key(table, id), to);
      return to;
    },
    addAlias: async (table, from, to) => {
      await client.query(
        `INSERT INTO hub_aliases (account_id, tbl, from_id, to_id) VALUES ($1, $2, $3, $4)
         ON CONFLICT (account_id, tbl, from_id) DO UPDATE SET to_id = excluded.to_id`,
        [accountId, table, from, to],
      );
      // Records merged into `from` earlier now point straight at the survivor.
      await client.query(
        'UPDATE hub_aliases SET to_id = $4 WHERE account_id = $1 AND tbl = $2 AND to_id = $3',
        [accountId, table, from, to],
      );
      for (const [cached, target] of aliases) {
        if (target === from && cached.startsWith(key(table, ''))) aliases.set(cached, to);
      }
      aliases.set(key(table, from), to);
    },
    flush: async () => {
      if (written.size === 0) return;
      const batch = [...written.values()];
      await client.query(
        `INSERT INTO hub_rows (account_id, tbl, pk, seq, vals, clocks, natural_key, actors)
         SELECT $1, * FROM unnest($2::text[], $3::text[], $4::bigint[], $5::text[], $6::text[], $7::text[], $8::text[])
         ON CONFLICT (account_id, tbl, pk) DO UPDATE SET seq = excluded.seq, vals = excluded.vals,
           clocks = excluded.clocks, natural_key = excluded.natural_key, actors = excluded.actors`,
        [
          accountId,
          batch.map((r) => r.table),
          batch.map((r) => r.pk),
          batch.map((r) => r.seq),
          batch.map((r) => JSON.stringify(r.state.v)),
          batch.map((r) => JSON.stringify(r.state.c)),
          batch.map((r) => r.naturalKey),
          batch.map((r) => actorsText(r.state)),
        ],
      );
      written.clear();
    },
  };
}

interface WrittenRow {
  table: string;
  pk: string;
  seq: number;
  state: RowState;
  naturalKey: string | null;
}

/** Every parent column of the synced tables, as (table, column, the table it names). */
const PARENT_COLUMNS = SYNCED_TABLES.flatMap((table) =>
  Object.entries(table.parents ?? {}).flatMap(([column, targets]) =>
    targets.map((target) => [table.name, column, target] as const),
  ),
);

/** The keys of the rows a change names through its parent columns (push-authorization.ts checks whose they are). */
function namedParents(change: PushedChange): Array<readonly [string, string]> {
  const table = syncedTable(change.table);
  const key = JSON.parse(change.pk) as unknown[];
  return Object.entries(table?.parents ?? {}).flatMap(([column, targets]) => {
    const position = table!.pk.indexOf(column);
    const id = column in change.state.v ? change.state.v[column] : position >= 0 ? key[position] : undefined;
    return typeof id === 'string' ? targets.map((target) => [target, JSON.stringify([id])] as const) : [];
  });
}

/** The natural key a pushed row carries, which the merge may look for among the live rows. */
function naturalKeyCandidate(change: PushedChange): Array<readonly [string, string]> {
  const table = syncedTable(change.table);
  const value = table?.naturalKey && change.state.v[table.naturalKey];
  return typeof value === 'string' && value !== '' ? [[table!.name, value]] : [];
}

/** The (table, id) pairs a change may have been merged away under: its own key and what it refers to. */
function aliasCandidates(change: PushedChange): Array<readonly [string, string]> {
  const table = syncedTable(change.table);
  if (!table) return [];
  const key = JSON.parse(change.pk) as unknown[];
  const out: Array<readonly [string, string]> = [];
  if (table.naturalKey) out.push([table.name, String(key[0])]);
  for (const [i, column] of table.pk.entries()) {
    const target = table.refs?.[column];
    if (target) out.push([target, String(key[i])]);
  }
  for (const [column, target] of Object.entries(table.refs ?? {})) {
    const value = change.state.v[column];
    if (typeof value === 'string') out.push([target, value]);
  }
  return out;
}
