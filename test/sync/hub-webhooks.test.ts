import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';
import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { pgHubDeliveries } from '../../server/sync/hub/pg-deliveries';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import type { HubDelivery } from '../../server/sync/hub/webhook-deliveries';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { bundledArgs } from '../helpers/process-bundles';
import { startTestServer, type TestServer } from '../helpers/server';
import { startSkewedMachine } from '../helpers/skewed-machine';
import { type Receiver, signatureMatches, startReceiver } from '../outbound/receiver';

/**
 * Webhooks delivered by a hosted hub (docs/sync.md, "Webhooks delivered by the hub"): an office
 * install on PostgreSQL hub storage and a van that joined through the hosted hub both raise events;
 * two hub processes on the database (one in this process, one `npm run hub` child) deliver each
 * event once to a receiver on 127.0.0.1.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const stops: Array<() => Promise<unknown>> = [];

function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(created);
  return created;
}

afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

async function hubChild(url: string): Promise<void> {
  const child: ChildProcess = spawn(
    process.execPath,
    bundledArgs('hub', '--database-url', url, '--port', '0'),
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  stops.push(async () => {
    child.kill('SIGTERM');
    await exited;
  });
  const lines = createInterface({ input: child.stdout! });
  await new Promise<void>((resolve) => {
    lines.on('line', (line) => {
      if ((JSON.parse(line) as { msg: string }).msg === 'hosted hub ready') resolve();
    });
  });
}

async function until(what: string, done: () => boolean | Promise<boolean>, ms = 30_000): Promise<void> {
  const started = Date.now();
  while (!(await done())) {
    if (Date.now() - started > ms) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The hub's deliveries for an endpoint once `count` of them are queued and none is waiting or being
 * sent. A send is made only under a claim, which takes a waiting delivery and ends when the receiver
 * has answered, so from then on nothing more reaches the receiver for these events: what it got is
 * all it gets, without waiting out a few more polls.
 */
async function settledDeliveries(pool: pg.Pool, accountId: string, endpointId: string, count: number) {
  const storage = pgHubDeliveries(pool);
  let kept: HubDelivery[] = [];
  await until('every delivery settled', async () => {
    kept = await storage.deliveries(accountId, endpointId);
    return kept.length >= count && kept.every((d) => d.status !== 'pending' && d.status !== 'sending');
  });
  return kept.sort((a, b) => (a.event_id < b.event_id ? -1 : 1));
}

describe('webhooks delivered by a hosted hub', () => {
  let office: TestServer;
  let receiver: Receiver;

  it('delivers every event of two devices once, signed, through two hub processes', async () => {
    const officePool = pool();
    await migratePgHub(officePool);
    office = await startTestServer({ hubStorage: pgHubStorage(officePool), localWebhooks: true });
    stops.push(() => office.stop());
    const account = await office.createAccount({ business: 'Sparkle' });
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);

    const hosted: HostedHub = await startHostedHub({ pool: pool(), port: 0, webhooks: { pollMs: 100 } });
    stops.push(() => hosted.close());
    await hubChild(databaseUrl());
    receiver = await startReceiver();
    stops.push(() => receiver.close());

    const created = await account.portal('POST', '/webhooks', {
      body: { url: receiver.url, events: ['customer.created'], delivered_by: 'hub' },
    });
    expectStatus(created, 201);
    expect(created.body.delivered_by).toBe('hub');
    const endpointId: string = created.body.id;
    const secret: string = created.body.secret;

    const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Van');
    const van = await startTestServer();
    stops.push(() => van.stop());
    await van.ctx.sync!.join({ url: hosted.url }, pairing.pairing_code, 'Van');
    const { key: vanKey } = await createKey(van.ctx, account.clientId, { kind: 'portal' });

    for (let i = 0; i < 3; i++) {
      const made = await account.portal('POST', '/customers', {
        body: { name: `Office ${i}`, email: `office${i}@example.com` },
      });
      expectStatus(made, 201);
      const fromVan = await van.request('POST', `/api/portal/${account.clientId}/customers`, {
        key: vanKey,
        body: { name: `Van ${i}`, email: `van${i}@example.com` },
      });
      expectStatus(fromVan, 201);
    }
    await van.ctx.sync!.syncNow(account.clientId);
    await office.ctx.sync!.syncNow(account.clientId);

    const events = await office.ctx.db
      .selectFrom('events')
      .select(['id', 'type'])
      .where('account_id', '=', account.clientId)
      .execute();
    const expected = events
      .filter((e) => e.type === 'customer.created')
      .map((e) => e.id)
      .sort();
    expect(expected).toHaveLength(6);

    const kept = await settledDeliveries(officePool, account.clientId, endpointId, expected.length);
    // One delivery per event, sent on one claim: both processes polled, neither sent it again.
    expect(kept.map((d) => [d.event_id, d.status, d.attempts])).toEqual(
      expected.map((id) => [id, 'succeeded', 1]),
    );
    const deliveredIds = receiver.received.map((r) => String(r.headers['x-service-event-id'])).sort();
    expect(deliveredIds).toEqual(expected);
    for (const received of receiver.received) expect(signatureMatches(received, secret)).toBe(true);
    // Neither install queued a delivery of its own for the endpoint the hub delivers.
    for (const server of [office, van]) {
      const local = await server.ctx.db
        .selectFrom('webhook_deliveries')
        .select('id')
        .where('endpoint_id', '=', endpointId)
        .execute();
      expect(local).toEqual([]);
    }
  }, 120_000);

  it('delivers what a computer 3 hours slow raises after the endpoint, and nothing from before it', async () => {
    const officePool = pool();
    await migratePgHub(officePool);
    const office = await startTestServer({ hubStorage: pgHubStorage(officePool), localWebhooks: true });
    stops.push(() => office.stop());
    const account = await office.createAccount({ business: 'Slow Van Cleaning' });
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
    const hosted = await startHostedHub({ pool: pool(), port: 0, webhooks: { pollMs: 100 } });
    stops.push(() => hosted.close());
    const slowReceiver = await startReceiver();
    stops.push(() => slowReceiver.close());

    const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Slow van');
    const van = await startSkewedMachine(hosted.url, pairing.pairing_code, -3 * 3_600_000);
    stops.push(() => van.stop());
    const vanCustomer = (i: number) =>
      van.request('POST', `/api/portal/${account.clientId}/customers`, {
        name: `Van ${i}`,
        email: `slow-van${i}@example.com`,
      });
    const syncBoth = async () => {
      expect((await van.request('POST', `/api/portal/${account.clientId}/sync/now`)).status).toBe(200);
      await office.ctx.sync!.syncNow(account.clientId);
    };

    // Known to the hub before the endpoint exists: never delivered to it.
    expect((await vanCustomer(0)).status).toBe(201);
    const early = await account.portal('POST', '/customers', {
      body: { name: 'Before', email: 'before@example.com' },
    });
    expectStatus(early, 201);
    await syncBoth();
    const before = new Set(
      (
        await office.ctx.db
          .selectFrom('events')
          .select('id')
          .where('account_id', '=', account.clientId)
          .execute()
      ).map((e) => e.id),
    );
    expect(before.size).toBe(2);

    const created = await account.portal('POST', '/webhooks', {
      body: { url: slowReceiver.url, events: ['customer.created'], delivered_by: 'hub' },
    });
    expectStatus(created, 201);
    const endpointId: string = created.body.id;

    for (let i = 1; i <= 3; i++) expect((await vanCustomer(i)).status).toBe(201);
    await syncBoth();
    const after = (
      await office.ctx.db
        .selectFrom('events')
        .select(['id', 'type'])
        .where('account_id', '=', account.clientId)
        .execute()
    )
      .filter((e) => !before.has(e.id) && e.type === 'customer.created')
      .map((e) => e.id)
      .sort();
    expect(after).toHaveLength(3);
    // The slow clock stamped them before the endpoint: by id order they would never go out.
    for (const id of after) expect(id.slice(4) < endpointId.slice(4)).toBe(true);

    // A poll queues in hub order, so an earlier event queued by mistake would be settled with these.
    const kept = await settledDeliveries(officePool, account.clientId, endpointId, after.length);
    expect(kept.map((d) => d.event_id)).toEqual(after);
    expect(slowReceiver.received.map((r) => String(r.headers['x-service-event-id'])).sort()).toEqual(after);
  }, 180_000);

  it('refuses delivered_by "hub" for a business that does not sync', async () => {
    const standalone = await startTestServer({ localWebhooks: true });
    stops.push(() => standalone.stop());
    const account = await standalone.createAccount();
    const refused = await account.portal('POST', '/webhooks', {
      body: { url: 'http://127.0.0.1:9/hooks', delivered_by: 'hub' },
    });
    expectStatus(refused, 409);
    expect(refused.body.error.message).toMatch(/set up sync first/);
    const listed = expectOk(await account.portal('GET', '/webhooks'));
    expect(listed.body.data).toEqual([]);
  });
});
