import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { SCHEMA_VERSION } from '../../server/db/database';
import { manualClock } from '../../server/lib/clock';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import type { HubStorage } from '../../server/sync/hub/storage';
import { DEVICE_LOCAL_TABLES, SYNCED_TABLES } from '../../server/sync/tables';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startPgHubPoolForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

const pool = startPgHubPoolForSuite();

/** The same API on both hub storages: the install's SQLite, and PostgreSQL (a throwaway cluster). */
const STORAGES: Array<[string, () => HubStorage | undefined]> = [
  ['SQLite', () => undefined],
  ['PostgreSQL', () => pgHubStorage(pool())],
];

interface Hub {
  hub: TestServer;
  clock: ReturnType<typeof manualClock>;
}
/**
 * One server per hub storage for the file, on a clock the tests move: each test pairs a business
 * of its own on it, as a hub holding several businesses does.
 */
const hubs = new Map<string, Promise<Hub>>();
afterAll(async () => {
  for (const started of hubs.values()) await (await started).hub.stop();
});

function hubOn(name: string, storage: () => HubStorage | undefined): Promise<Hub> {
  let started = hubs.get(name);
  if (!started) {
    const clock = manualClock();
    started = startTestServer({ clock, hubStorage: storage() }).then((hub) => ({ hub, clock }));
    hubs.set(name, started);
  }
  return started;
}

async function hubWithCodeOn(started: Promise<Hub>) {
  const { hub, clock } = await started;
  const account = await hub.createAccount({ business: 'Sparkle' });
  for (let i = 0; i < 12; i++) {
    await account.portal('POST', '/customers', {
      body: { name: `Customer ${i}`, email: `c${i}@example.com` },
    });
  }
  const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Laptop' } }));
  return { hub, account, clock, code: pairing.body.pairing_code as string };
}

describe.each(STORAGES)('the sync API, the hub on %s', (name, storage) => {
  const hubWithCode = () => hubWithCodeOn(hubOn(name, storage));

  it('classes every table of the schema as synced or device-local', async () => {
    const { hub } = await hubWithCode();
    const { rows } = await sql<{ name: string }>`SELECT name FROM sqlite_master WHERE type = 'table'`.execute(
      hub.ctx.db,
    );
    const names = rows.map((t) => t.name).filter((n) => n !== 'sqlite_sequence');
    const classified = new Set([...SYNCED_TABLES.map((t) => t.name), ...DEVICE_LOCAL_TABLES]);
    expect(names.filter((n) => !classified.has(n))).toEqual([]);
  });

  it('joins with a code once, within 15 minutes', async () => {
    const { hub, clock, account } = await hubWithCode();
    const late = expectOk(await account.portal('POST', '/sync/pair'));
    clock.advance(16 * 60_000);
    const expired = await hub.request('POST', '/api/sync/v1/join', {
      body: { code: late.body.pairing_code },
    });
    expectStatus(expired, 401);
    expect(expired.body.error.code).toBe('pairing_code_invalid');
  });

  it('refuses to join a business the folder holds already, without using up the code', async () => {
    const { hub, code, account } = await hubWithCode();
    const twice = await hub.request('POST', '/api/sync/v1/join', {
      body: { code, known_accounts: [account.clientId] },
    });
    expectStatus(twice, 409);
    expect(twice.body.error.code).toBe('already_joined');
    expect((await hub.request('POST', '/api/sync/v1/join', { body: { code } })).status).toBe(200);
    expect(okBody(await account.portal('GET', '/sync')).devices).toHaveLength(2);
  });

  it('refuses unknown and revoked devices, and devices newer than the hub', async () => {
    const { hub, account, code } = await hubWithCode();
    const joined = await hub.request('POST', '/api/sync/v1/join', { body: { code, name: 'Laptop' } });
    expectStatus(joined, 200);
    const { credential, device_id } = joined.body;
    const pull = (key: string, headers: Record<string, string> = {}) =>
      hub.request('GET', '/api/sync/v1/pull?cursor=0&limit=10', { key, headers });

    const first = await pull(credential);
    expectStatus(first, 200);
    expect(first.body.rows.length).toBe(10);
    expect(first.body.has_more).toBe(true);
    const next = expectOk(
      await hub.request('GET', `/api/sync/v1/pull?cursor=${first.body.cursor}&limit=1000`, {
        key: credential,
      }),
    );
    expect(next.body.rows[0]!.seq).toBeGreaterThan(first.body.cursor);

    expect((await pull('sd_sync_unknown')).status).toBe(401);
    const newer = await pull(credential, { 'shopdesk-schema-version': String(SCHEMA_VERSION + 1) });
    expectStatus(newer, 426);
    expect(newer.body.error.code).toBe('upgrade_required');

    const badTable = await hub.request('POST', '/api/sync/v1/push', {
      key: credential,
      body: { changes: [{ local_seq: 1, table: 'api_keys', pk: '["x"]', state: { v: {}, c: {} } }] },
    });
    expectStatus(badTable, 400);

    const removed = await account.portal('DELETE', `/sync/devices/${device_id}`);
    expectStatus(removed, 200);
    const revoked = await pull(credential);
    expectStatus(revoked, 401);
    expect(revoked.body.error.code).toBe('device_revoked');
  });

  it('answers other computers only over HTTPS', async () => {
    const { hub } = await hubWithCode();
    const join = (remoteAddress: string) =>
      hub.app.inject({
        method: 'POST',
        url: '/api/sync/v1/join',
        remoteAddress,
        payload: { code: 'AAAAA-AAAAA' },
      });
    const fromLan = await join('192.168.1.30');
    expect(fromLan.statusCode).toBe(403);
    expect(fromLan.json().error.code).toBe('https_required');
    expect((await join('127.0.0.1')).statusCode).toBe(401);
  });

  it('makes a pushed change idempotent: the same local_seq twice is one change', async () => {
    const { hub, code, account } = await hubWithCode();
    const { credential } = okBody(await hub.request('POST', '/api/sync/v1/join', { body: { code } }));
    const change = {
      local_seq: 1,
      table: 'team_members',
      pk: '["tm_x"]',
      state: {
        v: {
          id: 'tm_x',
          account_id: account.clientId,
          name: 'Sam',
          created_at: '2026-11-22T09:00:00Z',
          _deleted: 0,
        },
        c: { id: 'a', account_id: 'a', name: 'a', created_at: 'a', _deleted: 'a' },
      },
    };
    const first = expectOk(
      await hub.request('POST', '/api/sync/v1/push', {
        key: credential,
        body: { changes: [change] },
      }),
    );
    const again = expectOk(
      await hub.request('POST', '/api/sync/v1/push', {
        key: credential,
        body: { changes: [change] },
      }),
    );
    expect(first.body.accepted).toBe(1);
    expect(again.body).toMatchObject({ accepted: 0, acknowledged: 1, last_seq: first.body.last_seq });
  });

  it('leases disjoint number blocks to each device', async () => {
    const { hub, code, account } = await hubWithCode();
    const { credential } = okBody(await hub.request('POST', '/api/sync/v1/join', { body: { code } }));
    const second = okBody(await account.portal('POST', '/sync/pair')).pairing_code;
    const other = okBody(
      await hub.request('POST', '/api/sync/v1/join', { body: { code: second } }),
    ).credential;
    const lease = (key: string) =>
      hub.request('POST', '/api/sync/v1/leases', { key, body: { series: ['invoice'], size: 50 } });
    const [a, b] = [okBody(await lease(credential)).blocks[0], okBody(await lease(other)).blocks[0]];
    expect(a!.end - a!.start).toBe(49);
    expect(b!.start).toBeGreaterThan(a!.end);
  });
});
