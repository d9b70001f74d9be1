import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { setPlans } from '../../server/domain/accounts';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import type { HubStorage, PushedChange } from '../../server/sync/hub/storage';
import { DELETED } from '../../server/sync/synced-table';
import { expectOk, expectStatus, okBody, type TypedUrl } from '../helpers/api-responses';
import { startPgHubPoolForSuite } from '../helpers/postgres';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { stamped } from './hub-fixtures';

/**
 * Shared invariant 10 (docs/sync.md, "What a device may write"): a paired device writes only its
 * own business, and only what an owner could. Every probe runs on both hub storages; every
 * column of every synced table: push-columns.test.ts.
 */
const pool = startPgHubPoolForSuite();
const STORAGES: Array<[string, () => HubStorage | undefined]> = [
  ['SQLite', () => undefined],
  ['PostgreSQL', () => pgHubStorage(pool())],
];

/** A device's own server, started by a test and stopped after it. */
const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

interface Hub {
  server: TestServer;
  log: string[];
}
/**
 * One server per hub storage for the file: each test makes two businesses of its own on it, so
 * the folder holds A and B (and the businesses of the tests before), as a shared hub does.
 */
const hubs = new Map<string, Promise<Hub>>();
afterAll(async () => {
  for (const hub of hubs.values()) await (await hub).server.stop();
});

function hubOn(storageName: string, storage: () => HubStorage | undefined): Promise<Hub> {
  let hub = hubs.get(storageName);
  if (!hub) {
    const log: string[] = [];
    hub = startTestServer({ hubStorage: storage(), logger: { write: (line) => log.push(line) } }).then(
      (server) => ({ server, log }),
    );
    hubs.set(storageName, hub);
  }
  return hub;
}

interface Folder {
  server: TestServer;
  a: TestAccount;
  b: TestAccount;
  /** A customer of B, and one of A. */
  bCustomer: string;
  aCustomer: string;
  /** A device paired to A through the sync API. */
  credential: string;
  push(changes: PushedChange[], key?: string): Promise<TypedUrl<'POST', '/api/sync/v1/push'>>;
  /** The server's log lines since A and B were made. */
  log: string[];
}

/** Businesses A and B on the file's hub on `storage`, and a device joined to A. */
async function folderWithTwoBusinesses(hub: Promise<Hub>): Promise<Folder> {
  const { server, log } = await hub;
  log.length = 0;
  const a = await server.createAccount({ business: 'Alpha' });
  const b = await server.createAccount({ business: 'Bravo', plan: 'platform', apiPlan: 'growth' });
  const bCustomer = okBody(
    await b.portal('POST', '/customers', { body: { name: 'Bea', email: 'bea@b.test' } }),
  ).id as string;
  const aCustomer = okBody(await a.portal('POST', '/customers', { body: { name: 'Al', email: 'al@a.test' } }))
    .id as string;
  const code = okBody(await a.portal('POST', '/sync/pair', { body: { name: 'Laptop' } })).pairing_code;
  const joined = await server.request('POST', '/api/sync/v1/join', { body: { code } });
  expectStatus(joined, 200);
  const credential = joined.body.credential as string;
  let seq = 0;
  const push = (changes: PushedChange[], key = credential) =>
    server.request('POST', '/api/sync/v1/push', {
      key,
      body: { changes: changes.map((c) => ({ ...c, local_seq: c.local_seq || ++seq })) },
    });
  return { server, a, b, bCustomer, aCustomer, credential, push, log };
}

const change = (table: string, key: unknown[], v: Record<string, unknown>): PushedChange => ({
  local_seq: 0,
  table,
  pk: JSON.stringify(key),
  state: stamped(v),
});

/** What B looks like from its own portal: its plans and its customers. */
async function bSeen(folder: Folder) {
  const config = okBody(await folder.b.portal('GET', '/config'));
  const customers = okBody(await folder.b.portal('GET', '/customers?limit=100')).data as Array<{
    id: string;
    name: string;
  }>;
  return { plan: config.plan, api_plan: config.api_plan, customers: customers.map((c) => [c.id, c.name]) };
}

describe.each(STORAGES)('a device of business A, the hub on %s', (storageName, storage) => {
  it('cannot change business B: the push naming B is refused whole and B is untouched', async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const before = await bSeen(folder);
    const honest = change('team_members', ['tm_probe'], {
      id: 'tm_probe',
      account_id: folder.a.clientId,
      name: 'Probe',
      created_at: '2026-11-24T09:00:00Z',
      [DELETED]: 0,
    });
    const attack = await folder.push([
      { ...honest, local_seq: 1 },
      { ...change('accounts', [folder.b.clientId], { plan: 'basic', api_plan: 'none' }), local_seq: 2 },
      {
        ...change('customers', ['cus_injected'], {
          id: 'cus_injected',
          account_id: folder.b.clientId,
          name: 'Injected',
          email: 'x@evil.test',
          email_lower: 'x@evil.test',
          created_at: '2026-11-24T09:00:00Z',
          updated_at: '2026-11-24T09:00:00Z',
          [DELETED]: 0,
        }),
        local_seq: 3,
      },
    ]);
    expectStatus(attack, 403);
    expect(attack.body.error).toMatchObject({
      type: 'permission_error',
      code: 'cross_business_change',
      param: 'changes[1].pk',
      details: { table: 'accounts', pk: JSON.stringify([folder.b.clientId]) },
    });
    const logged = folder.log.map((line) => JSON.parse(line)).find((entry) => entry.msg === 'push refused');
    expect(logged).toMatchObject({
      level: 40,
      account_id: folder.a.clientId,
      code: 'cross_business_change',
      refused: { table: 'accounts' },
    });
    // Nothing of the push was applied: not even the honest change before the refused one.
    const pulled = expectOk(
      await folder.server.request('GET', '/api/sync/v1/pull?cursor=0&limit=1000', {
        key: folder.credential,
      }),
    );
    expect(pulled.body.rows.some((r: { pk: string }) => r.pk === '["tm_probe"]')).toBe(false);
    expect((await folder.a.portal('POST', '/sync/now')).status).toBe(200);
    expect(await bSeen(folder)).toEqual(before);
    expect(before.plan).toBe('platform');

    // The honest change alone goes through with the same local_seq: nothing was acknowledged.
    const retried = await folder.push([{ ...honest, local_seq: 1 }]);
    expectStatus(retried, 200);
    expect(retried.body).toMatchObject({ acknowledged: 1, accepted: 1 });
  });

  it.each([
    ['a customer whose account_id is B', 'customers', 'account_id'],
    ["a tag on B's customer", 'customer_tags', 'customer_id'],
    ["a note on B's customer", 'customer_notes', 'customer_id'],
  ])('refuses %s', async (_what, table, column) => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const rows: Record<string, PushedChange> = {
      customers: change('customers', ['cus_probe'], {
        id: 'cus_probe',
        account_id: folder.b.clientId,
        name: 'Probe',
        [DELETED]: 0,
      }),
      customer_tags: change('customer_tags', [folder.bCustomer, 'vip'], {
        customer_id: folder.bCustomer,
        tag: 'vip',
        [DELETED]: 0,
      }),
      customer_notes: change('customer_notes', ['note_probe'], {
        id: 'note_probe',
        customer_id: folder.bCustomer,
        text: 'owned',
        created_at: '2026-11-24T09:00:00Z',
        [DELETED]: 0,
      }),
    };
    const refused = await folder.push([rows[table]!]);
    expectStatus(refused, 403);
    expect(refused.body.error).toMatchObject({
      code: 'cross_business_change',
      param: `changes[0].state.v.${column}`,
      details: { table, column },
    });
    expect((await folder.a.portal('POST', '/sync/now')).status).toBe(200);
    expect((await bSeen(folder)).customers).toEqual([[folder.bCustomer, 'Bea']]);
  });

  it("cannot overwrite, delete or point at B's rows under its own account_id", async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    // B syncs through the same hub: its rows are the hub's too, under B.
    expect((await folder.b.portal('POST', '/sync/pair')).status).toBe(200);
    expect((await folder.b.portal('POST', '/sync/now')).status).toBe(200);
    const before = await bSeen(folder);
    const probes = [
      change('customers', [folder.bCustomer], {
        id: folder.bCustomer,
        account_id: folder.a.clientId,
        name: 'Stolen',
        [DELETED]: 0,
      }),
      change('customers', [folder.bCustomer], { [DELETED]: 1 }),
      change('jobs', ['job_probe'], {
        id: 'job_probe',
        account_id: folder.a.clientId,
        customer_id: folder.bCustomer,
        title: 'Peek',
        status: 'unscheduled',
        [DELETED]: 0,
      }),
    ];
    for (const probe of probes) {
      const answer = await folder.push([probe]);
      expectStatus(answer, 403);
      expect(answer.body.error.code).toBe('cross_business_change');
    }
    expect((await folder.a.portal('POST', '/sync/now')).status).toBe(200);
    expect(await bSeen(folder)).toEqual(before);
    expect((await folder.a.portal('GET', '/jobs/job_probe')).status).toBe(404);
  });

  it('cannot change its own plans, while the owner keeps their settings', async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const plans = okBody(await folder.a.portal('GET', '/config'));
    expect(plans).toMatchObject({ plan: 'platform', api_plan: 'growth' });
    const refused = await folder.push([
      change('accounts', [folder.a.clientId], { plan: 'basic', api_plan: 'none' }),
    ]);
    expectStatus(refused, 403);
    expect(refused.body.error).toMatchObject({
      code: 'column_not_writable',
      param: 'changes[0].state.v.plan',
      details: { table: 'accounts', column: 'plan' },
    });
    const { plan: _plan, api_plan: _apiPlan, client_id: _id, ...config } = plans;
    const owned = await folder.push([
      change('accounts', [folder.a.clientId], {
        config: JSON.stringify({ ...config, business_name: 'Alpha Renamed' }),
      }),
    ]);
    expectStatus(owned, 200);
    expect(owned.body.accepted).toBe(1);
    expect((await folder.a.portal('POST', '/sync/now')).status).toBe(200);
    const after = okBody(await folder.a.portal('GET', '/config'));
    expect(after).toMatchObject({
      plan: plans.plan,
      api_plan: plans.api_plan,
      business_name: 'Alpha Renamed',
    });
  });

  it("refuses a plan change on a device's folder, where its push would be refused", async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const device = await startTestServer();
    servers.push(device);
    const code = okBody(await folder.a.portal('POST', '/sync/pair')).pairing_code;
    await device.ctx.sync!.join({ url: folder.server.url }, code, 'Van');
    await expect(setPlans(device.ctx, folder.a.clientId, { plan: 'basic' })).rejects.toMatchObject({
      status: 409,
      code: 'invalid_state',
    });
    expect((await setPlans(folder.server.ctx, folder.a.clientId, { plan: 'basic' })).plan).toBe('basic');
  });

  it('refuses a revoked device, and the old credential after the device is paired again', async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const devices = okBody(await folder.a.portal('GET', '/sync')).devices as Array<{
      id: string;
      role: string;
    }>;
    const laptop = devices.find((d) => d.role === 'device')!;
    expect((await folder.a.portal('DELETE', `/sync/devices/${laptop.id}`)).status).toBe(200);
    const member = change('team_members', ['tm_late'], {
      id: 'tm_late',
      account_id: folder.a.clientId,
      name: 'Late',
      [DELETED]: 0,
    });
    const revoked = await folder.push([member]);
    expectStatus(revoked, 401);
    expect(revoked.body.error).toMatchObject({ type: 'authentication_error', code: 'device_revoked' });

    // No device credential is rotated in place: a device gets a new one by pairing again.
    const code = okBody(await folder.a.portal('POST', '/sync/pair')).pairing_code;
    const again = expectOk(await folder.server.request('POST', '/api/sync/v1/join', { body: { code } }));
    expect((await folder.push([member], again.body.credential)).status).toBe(200);
    const old = await folder.push([member]);
    expectStatus(old, 401);
    expect(old.body.error.code).toBe('device_revoked');
  });

  it("refuses a device of business B writing A's rows, and shows it only B's", async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const code = okBody(await folder.b.portal('POST', '/sync/pair')).pairing_code;
    const bDevice = okBody(await folder.server.request('POST', '/api/sync/v1/join', { body: { code } }))
      .credential as string;
    const refused = await folder.push(
      [change('customers', [folder.aCustomer], { name: 'Renamed by B', updated_at: '2026-11-24T10:00:00Z' })],
      bDevice,
    );
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('cross_business_change');
    const pulled = expectOk(
      await folder.server.request('GET', '/api/sync/v1/pull?cursor=0&limit=1000', {
        key: bDevice,
      }),
    );
    const keys = (pulled.body.rows as Array<{ pk: string }>).map((r) => r.pk);
    expect(keys).toContain(JSON.stringify([folder.bCustomer]));
    expect(keys).not.toContain(JSON.stringify([folder.aCustomer]));
    const aCustomer = expectOk(await folder.a.portal('GET', `/customers/${folder.aCustomer}`));
    expect(aCustomer.body.name).toBe('Al');
  });

  it('takes a replayed push once: the same batch again changes nothing', async () => {
    const folder = await folderWithTwoBusinesses(hubOn(storageName, storage));
    const batch = [
      { ...change('customers', [folder.aCustomer], { name: 'Once' }), local_seq: 1 },
      {
        ...change('customer_tags', [folder.aCustomer, 'vip'], {
          customer_id: folder.aCustomer,
          tag: 'vip',
          [DELETED]: 0,
        }),
        local_seq: 2,
      },
    ];
    const first = await folder.push(batch);
    expectStatus(first, 200);
    expect(first.body).toMatchObject({ acknowledged: 2, accepted: 2 });
    const replay = await folder.push(batch);
    expectStatus(replay, 200);
    expect(replay.body).toMatchObject({ acknowledged: 2, accepted: 0, last_seq: first.body.last_seq });
    // A replay carrying other values under the acknowledged numbers is skipped as well.
    const altered = await folder.push([
      { ...change('customers', [folder.aCustomer], { name: 'Twice' }), local_seq: 1 },
    ]);
    expect(altered.body).toMatchObject({ acknowledged: 2, accepted: 0 });
    expect((await folder.a.portal('POST', '/sync/now')).status).toBe(200);
    expect(okBody(await folder.a.portal('GET', `/customers/${folder.aCustomer}`)).name).toBe('Once');
  });
});
