import { sql } from 'kysely';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { openMemberSession } from '../../server/domain/member-sessions';
import { startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import type { Customer } from '../../shared/schemas/customer';
import type { HistoryEntry } from '../../shared/schemas/history';
import type { SyncPairing } from '../../shared/schemas/sync';
import type { TeamMember } from '../../shared/schemas/team';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Who made a change and on which device travels with it (docs/crew-design.md, "Who made each
 * change"): a change made on the van shows its member (or key) and "Van" in the office's history,
 * through a hub on PostgreSQL and through an install's own hub; a change from a peer that sent no
 * actor shows as before, by sync.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const stops: Array<() => Promise<unknown>> = [];

afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

async function started(options: Parameters<typeof startTestServer>[0] = {}): Promise<TestServer> {
  const server = await startTestServer(options);
  stops.push(() => server.stop());
  return server;
}

function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(created);
  return created;
}

async function history(server: TestServer, accountId: string, key: string, customerId: string) {
  const answer = await server.request<{ data: HistoryEntry[] }>(
    'GET',
    `/api/portal/${accountId}/history?record=customers/${customerId}`,
    { key },
  );
  expect(answer.status).toBe(200);
  return answer.body.data;
}

/** The office's business with a customer and an office member, ready to pair. */
async function office(server: TestServer) {
  const account = await server.createAccount({ business: 'Sparkle' });
  const ada = await account.portal<Customer>('POST', '/customers', {
    body: { name: 'Ada', email: 'ada@example.com', phone: '555 0000' },
  });
  const dana = await account.portal<TeamMember>('POST', '/team', { body: { name: 'Dana Office' } });
  await server.ctx.db
    .updateTable('team_members')
    .set({ role: 'office' })
    .where('id', '=', dana.body.id)
    .execute();
  return { account, customerId: ada.body.id, danaId: dana.body.id };
}

/** A PATCH of the customer on `server`, as the member signed in there. */
async function patchAsMember(
  server: TestServer,
  accountId: string,
  memberId: string,
  body: unknown,
  id: string,
) {
  const { token } = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, accountId, memberId, 'test'));
  const response = await fetch(`${server.url}/api/portal/${accountId}/customers/${id}`, {
    method: 'PATCH',
    headers: {
      cookie: `${server.app.sessionCookie}=${encodeURIComponent(token)}`,
      'content-type': 'application/json',
    },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
}

describe('who made a change, on the other devices', { timeout: 180_000 }, () => {
  it('through a hosted hub on PostgreSQL: the member and the key on the van show in the office', async () => {
    const officePool = pool();
    await migratePgHub(officePool);
    const desk = await started({ hubStorage: pgHubStorage(officePool) });
    const { account, customerId, danaId } = await office(desk);
    expect((await account.portal<SyncPairing>('POST', '/sync/pair')).status).toBe(200);
    const hosted = await startHostedHub({ pool: pool(), port: 0 });
    stops.push(() => hosted.close());
    const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Van');
    const van = await started();
    await van.ctx.sync!.join({ url: hosted.url }, pairing.pairing_code, 'Van');

    await patchAsMember(van, account.clientId, danaId, { phone: '555 0001' }, customerId);
    const { key } = await createKey(van.ctx, account.clientId, { kind: 'portal', name: 'Zapier' });
    const keyed = await van.request<Customer>(
      'PATCH',
      `/api/portal/${account.clientId}/customers/${customerId}`,
      {
        key,
        body: { name: 'Ada Lovelace' },
      },
    );
    expect(keyed.status).toBe(200);
    await van.ctx.sync!.syncNow(account.clientId);
    await desk.ctx.sync!.syncNow(account.clientId);

    const entries = await history(desk, account.clientId, account.portalKey, customerId);
    expect(entries.find((e) => e.field === 'phone')).toMatchObject({
      new_value: '555 0001',
      author: `member:${danaId}`,
      author_kind: 'member',
      author_name: 'Dana Office',
      device: { this_device: false, name: 'Van' },
    });
    // Keys stay on the install that made them: elsewhere a key is named by its kind.
    expect(entries.find((e) => e.field === 'name')).toMatchObject({
      new_value: 'Ada Lovelace',
      author_kind: 'api_key',
      author_name: 'An API key',
      device: { this_device: false, name: 'Van' },
    });
    // On the van, its own edits are its own, with the key's name.
    const vanEntries = await history(van, account.clientId, key, customerId);
    expect(vanEntries.find((e) => e.field === 'name')).toMatchObject({
      author_name: 'API key Zapier',
      device: { this_device: true, name: null },
    });

    // The hub keeps who wrote each column beside its clock, in PostgreSQL.
    const stored = await officePool.query<{ actors: string }>(
      "SELECT actors FROM hub_rows WHERE account_id = $1 AND tbl = 'customers' AND pk = $2",
      [account.clientId, JSON.stringify([customerId])],
    );
    expect(JSON.parse(stored.rows[0]!.actors)).toMatchObject({
      phone: { by: `member:${danaId}`, on: 'Van' },
    });
  });

  it("through an install's own hub: the owner's edit shows on the van; a change sent without an actor shows by sync", async () => {
    const desk = await started();
    const { account, customerId, danaId } = await office(desk);
    const pairing = await account.portal<SyncPairing>('POST', '/sync/pair', { body: { name: 'Van' } });
    const van = await started();
    await van.ctx.sync!.join({ url: desk.url }, pairing.body.pairing_code, 'Van');
    const { key: vanKey } = await createKey(van.ctx, account.clientId, { kind: 'portal' });

    const owner = await account.signIn();
    const edited = await fetch(`${desk.url}/api/portal/${account.clientId}/customers/${customerId}`, {
      method: 'PATCH',
      headers: { cookie: owner, 'content-type': 'application/json' },
      body: JSON.stringify({ phone: '555 0002' }),
    });
    expect(edited.status).toBe(200);
    await desk.ctx.sync!.syncNow(account.clientId);
    await van.ctx.sync!.syncNow(account.clientId);
    const deskName = (await desk.ctx.sync!.status(account.clientId)).devices!.find(
      (d) => d.role === 'hub',
    )!.name;
    expect(
      (await history(van, account.clientId, vanKey, customerId)).find((e) => e.field === 'phone'),
    ).toMatchObject({
      author: 'owner',
      author_name: 'The owner',
      device: { this_device: false, name: deskName },
    });

    // A peer from before actors sends none: its change reads as it did, by sync from another computer.
    await patchAsMember(van, account.clientId, danaId, { phone: '555 0003' }, customerId);
    await sql`UPDATE sync_outbox SET actor = NULL`.execute(van.ctx.db);
    await van.ctx.sync!.syncNow(account.clientId);
    await desk.ctx.sync!.syncNow(account.clientId);
    expect((await history(desk, account.clientId, account.portalKey, customerId))[0]).toMatchObject({
      field: 'phone',
      new_value: '555 0003',
      author: 'sync',
      author_kind: 'sync',
      device: { this_device: false, name: null },
    });
  });
});
