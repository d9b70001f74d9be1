import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import type { HubStorage, PushedChange } from '../../server/sync/hub/storage';
import { openDatabase } from '../../server/sync/open';
import { startPostgresForSuite } from '../helpers/postgres';

/**
 * The hub-originated change (HubStorage.writeRow, docs/client-hub.md) and the client hub's reads,
 * on both storages: a row the hub writes itself takes the next number after pushed ones, merges
 * like a push, and a repeated write of the same row changes nothing.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const cleanups: Array<() => Promise<void>> = [];

afterAll(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

const STORAGES: Array<[string, () => Promise<HubStorage>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-hub-rows-'));
      const database = await openDatabase(dir);
      cleanups.push(async () => {
        await database.close();
        rmSync(dir, { recursive: true, force: true });
      });
      return sqliteHubStorage(database.db, database.sqlite);
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
      pools.push(pool);
      await migratePgHub(pool);
      return pgHubStorage(pool);
    },
  ],
];

const clock = (n: number, node = 'dev') =>
  `${String(1_800_000_000_000 + n).padStart(15, '0')}.${'0'.repeat(10)}.${node}`;

function state(values: Record<string, unknown>, n: number, node?: string): PushedChange['state'] {
  const v = { ...values, _deleted: 0 };
  return { v, c: Object.fromEntries(Object.keys(v).map((k) => [k, clock(n, node)])) };
}

describe.each(STORAGES)('hub-originated rows on %s', (_name, open) => {
  it('numbers them like pushes, merges them by the rules, and reads them back by business', async () => {
    const storage = await open();
    const hub = new Hub(storage, manualClock('2026-11-22T09:00:00Z'));
    const accountId = `acct_rows${Math.random().toString(36).slice(2)}`;
    const own = await hub.adopt(accountId, 'Office');
    const customer = { id: `cus_${accountId}`, account_id: accountId, name: 'Maya', created_at: 'x' };
    const link = {
      id: `lnk_${accountId}`,
      account_id: accountId,
      customer_id: customer.id,
      token_hash: 'ab',
      created_at: 'x',
      expires_at: 'y',
      revoked_at: null,
    };
    await storage.push(
      accountId,
      own.id,
      [
        { local_seq: 1, table: 'customers', pk: JSON.stringify([customer.id]), state: state(customer, 1) },
        { local_seq: 2, table: 'client_links', pk: JSON.stringify([link.id]), state: state(link, 1) },
      ],
      true,
    );
    const action = {
      id: `act_${accountId}`,
      account_id: accountId,
      customer_id: customer.id,
      link_id: link.id,
      kind: 'quote.approve',
      subject_id: 'quo_1',
      payload: '{"name":"Maya"}',
      ip: '127.0.0.1',
      created_at: 'z',
      status: 'pending',
      outcome: null,
      applied_at: null,
    };
    const pk = JSON.stringify([action.id]);
    expect(await storage.writeRow(accountId, 'client_actions', pk, state(action, 2, 'hub'))).toBe(1);
    expect(await storage.writeRow(accountId, 'client_actions', pk, state(action, 2, 'hub'))).toBe(0);
    const pulled = await storage.pull(accountId, 0, 100);
    expect(pulled.rows.map((r) => r.table)).toEqual(['customers', 'client_links', 'client_actions']);
    expect(pulled.last_seq).toBe(3);

    // A device's "applied" outranks the hub's pending: the hub's write replayed never undoes it.
    await storage.push(
      accountId,
      own.id,
      [{ local_seq: 3, table: 'client_actions', pk, state: state({ status: 'applied' }, 3) }],
      true,
    );
    expect(await storage.writeRow(accountId, 'client_actions', pk, state(action, 2, 'hub'))).toBe(0);
    const [read] = await storage.readRows(accountId, 'client_actions', 'customer_id', [customer.id]);
    expect(read).toMatchObject({ id: action.id, status: 'applied', kind: 'quote.approve' });

    expect(await storage.readRow('client_links', JSON.stringify([link.id]))).toMatchObject({
      account_id: accountId,
      v: { token_hash: 'ab' },
    });
    expect(await storage.readRow('client_links', JSON.stringify(['lnk_none']))).toBeUndefined();
    expect(await storage.readRows(accountId, 'client_actions', 'customer_id', ['cus_other'])).toEqual([]);
    expect(await storage.readRows('acct_other', 'client_actions', 'customer_id', [customer.id])).toEqual([]);
  });
});
