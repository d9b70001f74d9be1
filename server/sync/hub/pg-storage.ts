import type { ClientConfig, Pool, PoolClient } from 'pg';
import { DELETED } from '../synced-table';
import { pgHubDeliveries } from './pg-deliveries';
import { PUSHED_CHANNEL, pushWatcher } from './pg-push-watch';
import { rowStore } from './pg-row-store';
import { mergePush } from './push-authorization';
import { mergePushedChange } from './push-merge';
import { pgSnapshot } from './snapshot';
import type { HubDevice, HubStorage, PushResult, StoredRow } from './storage';

/**
 * The hub's state in PostgreSQL (the hosted hub, docs/sync.md "Hosted hub"): any number of hub
 * processes may share one database, since every method is one transaction and a business's order
 * comes from its counter row, locked by the push that advances it. A sequence would not do:
 * sequence numbers are taken before commit, so a later number could become visible first and a
 * device's cursor would move past a row still to come. Tables: pg-schema.ts. `listen` is where
 * pushes are heard from (pg-push-watch.ts): PostgreSQL itself when the pool goes through a pooler.
 */
export function pgHubStorage(pool: Pool, listen: ClientConfig = pool.options): HubStorage {
  const one = async <T>(text: string, values: unknown[]): Promise<T | undefined> =>
    (await pool.query(text, values)).rows[0] as T | undefined;

  return {
    watchPushes: pushWatcher(listen),
    deliveries: pgHubDeliveries(pool),
    ensureBusiness: async (accountId, now) => {
      await pool.query(
        'INSERT INTO hub_businesses (account_id, last_seq, created_at) VALUES ($1, 0, $2) ON CONFLICT DO NOTHING',
        [accountId, now],
      );
    },
    hasBusiness: async (accountId) =>
      Boolean(await one('SELECT 1 FROM hub_businesses WHERE account_id = $1', [accountId])),

    addPairingCode: async (code) => {
      await pool.query(
        'INSERT INTO hub_pairing_codes (code_hash, account_id, name, created_at, expires_at) VALUES ($1, $2, $3, $4, $5)',
        [code.hash, code.account_id, code.name, code.created_at, code.expires_at],
      );
    },
    peekPairingCode: async (hash, now) =>
      (
        await one<{ account_id: string }>(
          'SELECT account_id FROM hub_pairing_codes WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2',
          [hash, now],
        )
      )?.account_id,
    redeemPairingCode: (hash, now) =>
      one(
        `UPDATE hub_pairing_codes SET used_at = $2
         WHERE code_hash = $1 AND used_at IS NULL AND expires_at > $2
         RETURNING account_id, name`,
        [hash, now],
      ),

    addDevice: async (device) =>
      ((
        await pool.query(
          `INSERT INTO hub_devices (id, account_id, name, code, credential_hash, last_local_seq, created_at)
           VALUES ($1, $2, $3, $4, $5, 0, $6) ON CONFLICT (account_id, code) DO NOTHING`,
          [device.id, device.account_id, device.name, device.code, device.credential_hash, device.created_at],
        )
      ).rowCount ?? 0) > 0,
    deviceByCredential: async (hash) => {
      const row = await one<DeviceRow>(
        `SELECT ${DEVICE_COLUMNS} FROM hub_devices WHERE credential_hash = $1`,
        [hash],
      );
      return row && toDevice(row);
    },
    listDevices: async (accountId) =>
      (
        await pool.query<DeviceRow>(
          `SELECT ${DEVICE_COLUMNS} FROM hub_devices WHERE account_id = $1 ORDER BY created_at, id`,
          [accountId],
        )
      ).rows.map(toDevice),
    forgetUnusedDevice: async (accountId, deviceId) => {
      await pool.query('DELETE FROM hub_devices WHERE account_id = $1 AND id = $2 AND last_local_seq = 0', [
        accountId,
        deviceId,
      ]);
    },
    revokeDevice: async (accountId, deviceId, now) =>
      ((
        await pool.query(
          'UPDATE hub_devices SET revoked_at = $3 WHERE account_id = $1 AND id = $2 AND revoked_at IS NULL',
          [accountId, deviceId, now],
        )
      ).rowCount ?? 0) > 0,
    touchDevice: async (deviceId, now) => {
      await pool.query('UPDATE hub_devices SET last_seen_at = $2 WHERE id = $1', [deviceId, now]);
    },

    push: (accountId, deviceId, changes, operator) =>
      inTransaction(pool, async (client): Promise<PushResult> => {
        // Pushes of one business queue here, so their rows take numbers in commit order.
        const business = (
          await client.query<{ last_seq: string }>(
            'SELECT last_seq FROM hub_businesses WHERE account_id = $1 FOR UPDATE',
            [accountId],
          )
        ).rows[0];
        if (!business) throw new Error(`The hub holds no business ${accountId}`);
        const device = (
          await client.query<{ last_local_seq: string }>(
            'SELECT last_local_seq FROM hub_devices WHERE id = $1',
            [deviceId],
          )
        ).rows[0];
        if (!device) throw new Error(`The hub holds no device ${deviceId}`);
        let seq = Number(business.last_seq);
        const store = await rowStore(client, accountId, changes, () => ++seq);
        const { acknowledged, accepted } = await mergePush(
          store,
          { business: accountId, operator },
          changes,
          Number(device.last_local_seq),
        );
        await store.flush();
        await client.query('UPDATE hub_businesses SET last_seq = $2 WHERE account_id = $1', [accountId, seq]);
        await client.query('UPDATE hub_devices SET last_local_seq = $2 WHERE id = $1', [
          deviceId,
          acknowledged,
        ]);
        // Delivered at commit, to every hub process listening (pg-push-watch.ts).
        if (accepted > 0) await client.query('SELECT pg_notify($1, $2)', [PUSHED_CHANNEL, accountId]);
        return { acknowledged, accepted, last_seq: seq };
      }),
    writeRow: (accountId, table, pk, state) =>
      inTransaction(pool, async (client) => {
        const business = (
          await client.query<{ last_seq: string }>(
            'SELECT last_seq FROM hub_businesses WHERE account_id = $1 FOR UPDATE',
            [accountId],
          )
        ).rows[0];
        if (!business) throw new Error(`The hub holds no business ${accountId}`);
        let seq = Number(business.last_seq);
        const change = { local_seq: 0, table, pk, state };
        const store = await rowStore(client, accountId, [change], () => ++seq);
        const changed = await mergePushedChange(store, change);
        await store.flush();
        await client.query('UPDATE hub_businesses SET last_seq = $2 WHERE account_id = $1', [accountId, seq]);
        if (changed > 0) await client.query('SELECT pg_notify($1, $2)', [PUSHED_CHANNEL, accountId]);
        return changed;
      }),
    readRow: async (table, pk) => {
      const row = await one<{ account_id: string; vals: string }>(
        'SELECT account_id, vals FROM hub_rows WHERE tbl = $1 AND pk = $2',
        [table, pk],
      );
      const v = row && (JSON.parse(row.vals) as Record<string, unknown>);
      return v && v[DELETED] !== 1 ? { account_id: row.account_id, v } : undefined;
    },
    readRows: async (accountId, table, column, values) =>
      (
        await pool.query<{ vals: string }>(
          `SELECT vals FROM hub_rows WHERE account_id = $1 AND tbl = $2
           AND (vals::jsonb ->> $3) = ANY($4::text[]) AND coalesce(vals::jsonb ->> '${DELETED}', '0') <> '1'`,
          [accountId, table, column, values],
        )
      ).rows.map((r) => JSON.parse(r.vals) as Record<string, unknown>),
    pull: async (accountId, cursor, limit) => {
      const [page, business] = await Promise.all([
        pool.query<{
          seq: string;
          tbl: string;
          pk: string;
          vals: string;
          clocks: string;
          actors: string | null;
        }>(
          'SELECT seq, tbl, pk, vals, clocks, actors FROM hub_rows WHERE account_id = $1 AND seq > $2 ORDER BY seq LIMIT $3',
          [accountId, cursor, limit],
        ),
        one<{ last_seq: string }>('SELECT last_seq FROM hub_businesses WHERE account_id = $1', [accountId]),
      ]);
      const rows = page.rows.map(
        (r): StoredRow => ({
          seq: Number(r.seq),
          table: r.tbl,
          pk: r.pk,
          vals: r.vals,
          clocks: r.clocks,
          actors: r.actors,
        }),
      );
      // The two reads may see different commits; a last_seq ahead of the page only means "pull again".
      const lastSeq = Math.max(Number(business?.last_seq ?? 0), rows.at(-1)?.seq ?? 0);
      return { rows, last_seq: lastSeq };
    },
    snapshot: (accountId, query) => pgSnapshot(pool, accountId, query),

    seedNumbers: async (accountId, series, floor) => {
      await pool.query(
        'INSERT INTO hub_number_series (account_id, series, next_value) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING',
        [accountId, series, floor],
      );
    },
    leaseNumbers: (accountId, deviceId, series, size, now) =>
      inTransaction(pool, async (client) => {
        await client.query(
          'INSERT INTO hub_number_series (account_id, series, next_value) VALUES ($1, $2, 1) ON CONFLICT DO NOTHING',
          [accountId, series],
        );
        // The update holds the series row until commit: concurrent leases take the next block.
        const { rows } = await client.query<{ next_value: string }>(
          `UPDATE hub_number_series SET next_value = next_value + $3
           WHERE account_id = $1 AND series = $2 RETURNING next_value`,
          [accountId, series, size],
        );
        const end = Number(rows[0]!.next_value) - 1;
        const start = end - size + 1;
        await client.query(
          `INSERT INTO hub_number_leases (account_id, device_id, series, start_value, end_value, created_at)
           VALUES ($1, $2, $3, $4, $5, $6)`,
          [accountId, deviceId, series, start, end, now],
        );
        return { start, end };
      }),
  };
}

async function inTransaction<T>(pool: Pool, fn: (client: PoolClient) => Promise<T>): Promise<T> {
  const client = await pool.connect();
  let broken: Error | undefined;
  // A connection lost while checked out (a server restart, a killed backend) fails the running
  // query; its error event must not also bring the process down.
  const lost = (error: Error) => {
    broken = error;
  };
  client.on('error', lost);
  try {
    await client.query('BEGIN');
    const result = await fn(client);
    await client.query('COMMIT');
    return result;
  } catch (error) {
    await client.query('ROLLBACK').catch((rollbackError: Error) => {
      broken = rollbackError;
    });
    throw error;
  } finally {
    client.off('error', lost);
    // A connection that is lost or cannot even roll back is dropped, not handed to the next caller.
    client.release(broken);
  }
}

interface DeviceRow extends Omit<HubDevice, 'last_local_seq'> {
  last_local_seq: string;
}

function toDevice(row: DeviceRow): HubDevice {
  return { ...row, last_local_seq: Number(row.last_local_seq) };
}

const DEVICE_COLUMNS = 'id, account_id, name, code, last_local_seq, created_at, last_seen_at, revoked_at';
