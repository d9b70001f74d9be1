import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { Db } from '../../db/database';
import { exclusive } from '../exclusive';
import type { RowState } from '../merge';
import { localOwner } from '../owner';
import { DELETED } from '../synced-table';
import { mergePush } from './push-authorization';
import { type HubRowStore, mergePushedChange } from './push-merge';
import { sqliteSnapshot } from './snapshot';
import {
  actorsText,
  type HubDevice,
  type HubStorage,
  type PushResult,
  type StoredRow,
  storedState,
} from './storage';

/**
 * The hub's state in the install's own SQLite file (the embedded default). Statements run on the
 * raw driver for speed, while holding Kysely's connection so no request's transaction is open.
 */
export function sqliteHubStorage(db: Db, sqlite: SQLite.Database): HubStorage {
  // Every statement is prepared once: pushes and pulls run them many times a second.
  const statements = new Map<string, SQLite.Statement>();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = sqlite.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  const run = <T>(fn: () => T) => exclusive({ db, sqlite }, () => sqlite.transaction(fn).immediate());
  /**
   * A write to a business's rows in one immediate transaction: the rows it stores take the
   * business's next sequence numbers, and the last one given is kept with the write or not at all.
   * The merge is async, so this cannot be a better-sqlite3 transaction function.
   */
  const sequencedWrite = <T>(
    accountId: string,
    write: (store: HubRowStore, lastSeq: () => number) => Promise<T>,
  ): Promise<T> =>
    exclusive({ db, sqlite }, async () => {
      sqlite.exec('BEGIN IMMEDIATE');
      try {
        const business = prepared('SELECT last_seq FROM hub_businesses WHERE account_id = ?').get(
          accountId,
        ) as { last_seq: number } | undefined;
        if (!business) throw new Error(`The hub holds no business ${accountId}`);
        let seq = business.last_seq;
        const result = await write(
          rowStore(accountId, () => ++seq),
          () => seq,
        );
        prepared('UPDATE hub_businesses SET last_seq = ? WHERE account_id = ?').run(seq, accountId);
        sqlite.exec('COMMIT');
        return result;
      } catch (error) {
        sqlite.exec('ROLLBACK');
        throw error;
      }
    });
  const getRow = prepared(
    'SELECT vals, clocks, actors FROM hub_rows WHERE account_id = ? AND tbl = ? AND pk = ?',
  );
  const putRow = prepared(
    `INSERT INTO hub_rows (account_id, tbl, pk, seq, vals, clocks, actors, natural_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
     ON CONFLICT (account_id, tbl, pk) DO UPDATE SET seq = excluded.seq, vals = excluded.vals, clocks = excluded.clocks,
       actors = excluded.actors, natural_key = excluded.natural_key`,
  );
  const findLive = prepared(
    'SELECT pk FROM hub_rows WHERE account_id = ? AND tbl = ? AND natural_key = ? AND pk <> ? LIMIT 1',
  );
  const getAlias = prepared('SELECT to_id FROM hub_aliases WHERE account_id = ? AND tbl = ? AND from_id = ?');
  const anyAlias = prepared('SELECT 1 FROM hub_aliases WHERE account_id = ? AND tbl = ? LIMIT 1');

  return {
    ensureBusiness: (accountId, now) =>
      run(() => {
        prepared(
          'INSERT OR IGNORE INTO hub_businesses (account_id, last_seq, created_at) VALUES (?, 0, ?)',
        ).run(accountId, now);
      }),
    hasBusiness: (accountId) =>
      run(() => Boolean(prepared('SELECT 1 FROM hub_businesses WHERE account_id = ?').get(accountId))),

    addPairingCode: (code) =>
      run(() => {
        prepared(
          'INSERT INTO hub_pairing_codes (code_hash, account_id, name, created_at, expires_at) VALUES (?, ?, ?, ?, ?)',
        ).run(code.hash, code.account_id, code.name, code.created_at, code.expires_at);
      }),
    peekPairingCode: (hash, now) =>
      run(
        () =>
          (
            prepared(
              'SELECT account_id FROM hub_pairing_codes WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
            ).get(hash, now) as { account_id: string } | undefined
          )?.account_id,
      ),
    redeemPairingCode: (hash, now) =>
      run(() => {
        const row = prepared(
          'SELECT account_id, name FROM hub_pairing_codes WHERE code_hash = ? AND used_at IS NULL AND expires_at > ?',
        ).get(hash, now) as { account_id: string; name: string | null } | undefined;
        if (row) prepared('UPDATE hub_pairing_codes SET used_at = ? WHERE code_hash = ?').run(now, hash);
        return row;
      }),

    addDevice: (device) =>
      run(
        () =>
          prepared(
            `INSERT INTO hub_devices (id, account_id, name, code, credential_hash, last_local_seq, created_at)
               VALUES (?, ?, ?, ?, ?, 0, ?) ON CONFLICT (account_id, code) DO NOTHING`,
          ).run(
            device.id,
            device.account_id,
            device.name,
            device.code,
            device.credential_hash,
            device.created_at,
          ).changes > 0,
      ),
    deviceByCredential: (hash) =>
      run(
        () =>
          prepared(`SELECT ${DEVICE_COLUMNS} FROM hub_devices WHERE credential_hash = ?`).get(hash) as
            | HubDevice
            | undefined,
      ),
    listDevices: (accountId) =>
      run(
        () =>
          prepared(
            `SELECT ${DEVICE_COLUMNS} FROM hub_devices WHERE account_id = ? ORDER BY created_at, id`,
          ).all(accountId) as HubDevice[],
      ),
    forgetUnusedDevice: async (accountId, deviceId) => {
      await run(() =>
        prepared('DELETE FROM hub_devices WHERE account_id = ? AND id = ? AND last_local_seq = 0').run(
          accountId,
          deviceId,
        ),
      );
    },
    revokeDevice: (accountId, deviceId, now) =>
      run(
        () =>
          prepared(
            'UPDATE hub_devices SET revoked_at = ? WHERE account_id = ? AND id = ? AND revoked_at IS NULL',
          ).run(now, accountId, deviceId).changes > 0,
      ),
    touchDevice: (deviceId, now) =>
      run(() => {
        prepared('UPDATE hub_devices SET last_seen_at = ? WHERE id = ?').run(now, deviceId);
      }),

    push: (accountId, deviceId, changes, operator, sameCommit) =>
      sequencedWrite(accountId, async (store, lastSeq): Promise<PushResult> => {
        const device = prepared('SELECT last_local_seq FROM hub_devices WHERE id = ?').get(deviceId) as {
          last_local_seq: number;
        };
        const before = lastSeq();
        const { acknowledged, accepted, asPushed } = await mergePush(
          store,
          { business: accountId, operator },
          changes,
          device.last_local_seq,
        );
        prepared('UPDATE hub_devices SET last_local_seq = ? WHERE id = ?').run(acknowledged, deviceId);
        const result = {
          acknowledged,
          accepted,
          last_seq: lastSeq(),
          ...(asPushed && { as_pushed_after: before }),
        };
        sameCommit?.(result);
        return result;
      }),
    writeRow: (accountId, table, pk, state) =>
      sequencedWrite(accountId, (store) => mergePushedChange(store, { local_seq: 0, table, pk, state })),
    readRow: (table, pk) =>
      run(() => {
        const row = prepared('SELECT account_id, vals FROM hub_rows WHERE tbl = ? AND pk = ?').get(
          table,
          pk,
        ) as { account_id: string; vals: string } | undefined;
        const v = row && (JSON.parse(row.vals) as Record<string, unknown>);
        return v && v[DELETED] !== 1 ? { account_id: row.account_id, v } : undefined;
      }),
    readRows: (accountId, table, column, values) =>
      run(() =>
        (
          prepared(
            `SELECT vals FROM hub_rows WHERE account_id = ? AND tbl = ?
               AND json_extract(vals, '$.' || ?) IN (SELECT value FROM json_each(?))
               AND coalesce(json_extract(vals, '$.${DELETED}'), 0) <> 1`,
          ).all(accountId, table, column, JSON.stringify(values)) as Array<{ vals: string }>
        ).map((r) => JSON.parse(r.vals) as Record<string, unknown>),
      ),
    pull: (accountId, cursor, limit) =>
      run(() => {
        const rows = (
          prepared(
            'SELECT seq, tbl, pk, vals, clocks, actors FROM hub_rows WHERE account_id = ? AND seq > ? ORDER BY seq LIMIT ?',
          ).all(accountId, cursor, limit) as Array<Omit<StoredRow, 'table'> & { tbl: string }>
        ).map(({ tbl, ...r }): StoredRow => ({ ...r, table: tbl }));
        const business = prepared('SELECT last_seq FROM hub_businesses WHERE account_id = ?').get(
          accountId,
        ) as { last_seq: number } | undefined;
        return { rows, last_seq: business?.last_seq ?? 0 };
      }),
    snapshot: (accountId, query) => run(() => sqliteSnapshot(sqlite, accountId, query)),

    seedNumbers: (accountId, series, floor) =>
      run(() => {
        prepared(
          'INSERT OR IGNORE INTO hub_number_series (account_id, series, next_value) VALUES (?, ?, ?)',
        ).run(accountId, series, floor);
      }),
    leaseNumbers: (accountId, deviceId, series, size, now) =>
      run(() => {
        prepared(
          'INSERT OR IGNORE INTO hub_number_series (account_id, series, next_value) VALUES (?, ?, 1)',
        ).run(accountId, series);
        const { next_value: start } = prepared(
          'SELECT next_value FROM hub_number_series WHERE account_id = ? AND series = ?',
        ).get(accountId, series) as { next_value: number };
        const end = start + size - 1;
        prepared('UPDATE hub_number_series SET next_value = ? WHERE account_id = ? AND series = ?').run(
          end + 1,
          accountId,
          series,
        );
        prepared(
          `INSERT INTO hub_number_leases (account_id, device_id, series, start_value, end_value, created_at)
             VALUES (?, ?, ?, ?, ?, ?)`,
        ).run(accountId, deviceId, series, start, end, now);
        return { start, end };
      }),
  };

  function rowStore(accountId: string, nextSeq: () => number): HubRowStore {
    // One write's rows as it read or wrote them: a pushed change reads its row up to three times
    // (authorize, merge, duplicates) and a line reads the document its push just wrote.
    const rows = new Map<string, RowState | undefined>();
    // Whether the business has merged any record of a table, asked once a write: a pushed row looks
    // up an alias for each record it names, and most tables of most businesses have none.
    const aliased = new Map<string, boolean>();
    const hasAliases = (table: string) => {
      let found = aliased.get(table);
      if (found === undefined) {
        found = anyAlias.get(accountId, table) !== undefined;
        aliased.set(table, found);
      }
      return found;
    };
    return {
      get: async (table, pk) => {
        const id = `${table}\u0000${pk}`;
        if (rows.has(id)) return rows.get(id);
        const row = getRow.get(accountId, table, pk) as
          | { vals: string; clocks: string; actors: string | null }
          | undefined;
        const state = row ? storedState(row) : undefined;
        rows.set(id, state);
        return state;
      },
      put: async (table, pk, state, naturalKey) => {
        rows.set(`${table}\u0000${pk}`, state);
        putRow.run(
          accountId,
          table,
          pk,
          nextSeq(),
          JSON.stringify(state.v),
          JSON.stringify(state.c),
          actorsText(state),
          naturalKey,
        );
      },
      owner: async (table, key) => localOwner(prepared, table, key),
      findLive: async (table, naturalKey, pk) =>
        (findLive.get(accountId, table, naturalKey, pk) as { pk: string } | undefined)?.pk,
      aliasOf: async (table, id) =>
        hasAliases(table)
          ? (getAlias.get(accountId, table, id) as { to_id: string } | undefined)?.to_id
          : undefined,
      addAlias: async (table, from, to) => {
        aliased.set(table, true);
        prepared(
          'INSERT OR REPLACE INTO hub_aliases (account_id, tbl, from_id, to_id) VALUES (?, ?, ?, ?)',
        ).run(accountId, table, from, to);
        prepared('UPDATE hub_aliases SET to_id = ? WHERE account_id = ? AND tbl = ? AND to_id = ?').run(
          to,
          accountId,
          table,
          from,
        );
      },
    };
  }
}

const DEVICE_COLUMNS = 'id, account_id, name, code, last_local_seq, created_at, last_seen_at, revoked_at';
