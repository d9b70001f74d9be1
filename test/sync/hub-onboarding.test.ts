import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { expectStatus } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * Bringing a business onto a hosted hub over the sync API (`sync pair --hub URL
 * --admin-token-file …`): the office install needs only the hub's URL and the operator's token.
 */
const ADMIN_TOKEN = 'hub-admin-token-for-tests-0123456789';
const databaseUrl = startPostgresForSuite();
let pool: pg.Pool;
let hosted: HostedHub;
const stops: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  hosted = await startHostedHub({ pool, port: 0, adminToken: ADMIN_TOKEN });
});
afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
  await hosted?.close();
  await pool?.end();
});

async function customers(server: TestServer, accountId: string): Promise<string[]> {
  const rows = await server.ctx.db
    .selectFrom('customers')
    .select('email')
    .where('account_id', '=', accountId)
    .orderBy('email')
    .execute();
  return rows.map((r) => r.email ?? '');
}

describe('bringing a business onto a hosted hub over HTTP', () => {
  it('uploads the business, after which devices join through the hub and both sides sync', async () => {
    const office = await startTestServer();
    stops.push(() => office.stop());
    const account = await office.createAccount({ business: 'Sparkle' });
    for (let i = 0; i < 3; i++) {
      await account.portal('POST', '/customers', {
        body: { name: `Customer ${i}`, email: `c${i}@example.com` },
      });
    }
    const invoice = {
      customer_email: 'billed@example.com',
      customer_name: 'Billed',
      items: [{ description: 'Deep clean', quantity: 1, unit_price: 80 }],
    };
    const before = await account.portal('POST', '/invoices/create', { body: invoice });
    expectStatus(before, 201);

    const engine = office.ctx.sync!;
    await expect(engine.upload(account.clientId, { url: hosted.url }, 'wrong-token')).rejects.toThrow(
      /admin token/,
    );
    expect(await hosted.hub.storage.hasBusiness(account.clientId)).toBe(false);

    const uploaded = await engine.upload(account.clientId, { url: hosted.url }, ADMIN_TOKEN, 'Office');
    expect(uploaded.pushed).toBeGreaterThan(0);
    expect((await engine.status(account.clientId)).role).toBe('device');
    await expect(engine.upload(account.clientId, { url: hosted.url }, ADMIN_TOKEN)).rejects.toThrow(
      /already syncs/,
    );

    const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Van');
    const van = await startTestServer();
    stops.push(() => van.stop());
    await van.ctx.sync!.join({ url: hosted.url }, pairing.pairing_code, 'Van');
    const expected = ['billed@example.com', 'c0@example.com', 'c1@example.com', 'c2@example.com'];
    expect(await customers(van, account.clientId)).toEqual(expected);

    const { key } = await createKey(van.ctx, account.clientId, { kind: 'portal' });
    const made = await van.request('POST', `/api/portal/${account.clientId}/customers`, {
      key,
      body: { name: 'From the van', email: 'van@example.com' },
    });
    expectStatus(made, 201);
    // Numbers the office used before the upload are not leased again.
    const vanInvoice = await van.request('POST', `/api/portal/${account.clientId}/invoices/create`, {
      key,
      body: invoice,
    });
    expectStatus(vanInvoice, 201);
    expect(vanInvoice.body.number).not.toBe(before.body.number);
    await van.ctx.sync!.syncNow(account.clientId);
    await engine.syncNow(account.clientId);
    expect(await customers(office, account.clientId)).toEqual([...expected, 'van@example.com'].sort());
  }, 120_000);

  it('refuses a second upload of a business the hub holds, and any upload without the token', async () => {
    const post = (token: string | null, body: unknown) =>
      fetch(`${hosted.url}/api/sync/v1/businesses`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...(token && { authorization: `Bearer ${token}` }) },
        body: JSON.stringify(body),
      });
    const body = { client_id: 'acct_twice', number_floors: { invoice: 1 } };
    expect((await post(null, body)).status).toBe(401);
    expect((await post(ADMIN_TOKEN, body)).status).toBe(200);
    const again = await post(ADMIN_TOKEN, body);
    expectStatus(again, 409);
    expect(((await again.json()) as { error: { code: string } }).error.code).toBe('already_on_hub');
  });
});
