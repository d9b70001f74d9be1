import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateCustomer } from '../../server/domain/customers';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let other: TestAccount;
let customerId: string;
const clock = manualClock('2026-11-23T09:00:00Z');

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
  other = await server.createAccount({ business: 'Other Co' });
  const created = expectOk(
    await shop.portal('POST', '/customers', {
      body: { name: 'Ada', email: 'ada@example.com', phone: '555 0000' },
    }),
  );
  customerId = created.body.id;
  clock.advance(60_000);
  await shop.portal('PATCH', '/customers/ada@example.com', { body: { phone: '555 0001', name: 'Ada L.' } });
});
afterAll(() => server.stop());

describe('portal history', () => {
  it("lists a record's changes, newest first, one entry per field, made here", async () => {
    const history = await shop.portal('GET', `/history?record=customers/${customerId}`);
    expectStatus(history, 200);
    expect(history.body.data.map((e: { field: string }) => e.field).sort()).toEqual(['name', 'phone']);
    expect(history.body.data.find((e: { field: string }) => e.field === 'phone')).toMatchObject({
      object: 'history_entry',
      record: `customers/${customerId}`,
      old_value: '555 0000',
      new_value: '555 0001',
      device: { this_device: true },
      changed_at: '2026-11-23T09:01:00Z',
      replaced: false,
      restored_at: null,
      restorable: false,
    });
  });

  it("records an invoice's status moving", async () => {
    const invoice = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'ada@example.com',
          items: [{ description: 'Clean', quantity: 1, unit_price: 100 }],
        },
      }),
    );
    const sent = await shop.portal('POST', `/invoices/${invoice.body.id}/mark-sent`);
    expectStatus(sent, 200);
    const history = expectOk(await shop.portal('GET', `/history?record=invoices/${invoice.body.id}`));
    expect(history.body.data[0]).toMatchObject({ field: 'status', old_value: 'draft', new_value: 'sent' });
  });

  it('puts back only a value a sync replaced', async () => {
    const history = expectOk(await shop.portal('GET', `/history?record=customers/${customerId}`));
    const restore = await shop.portal('POST', `/history/${history.body.data[0]!.id}/restore`);
    expectStatus(restore, 409);
    expect(restore.body.error.code).toBe('invalid_state');
    const missing = await shop.portal('POST', '/history/chg_999999/restore');
    expectStatus(missing, 404);
  });

  it('refuses a malformed or unknown record', async () => {
    const malformed = await shop.portal('GET', '/history?record=payments/pay_1');
    expectStatus(malformed, 400);
    expect(malformed.body.error.param).toBe('record');
    const unknown = await shop.portal('GET', '/history?record=customers/cus_nobody');
    expectStatus(unknown, 404);
  });

  it("is this account's alone: another account's key and a v1 key are refused", async () => {
    const history = expectOk(await shop.portal('GET', `/history?record=customers/${customerId}`));
    const path = `/api/portal/${shop.clientId}`;
    for (const key of [other.portalKey, shop.v1Key]) {
      const read = await server.request('GET', `${path}/history?record=customers/${customerId}`, { key });
      expectStatus(read, 403);
      const write = await server.request('POST', `${path}/history/${history.body.data[0]!.id}/restore`, {
        key,
      });
      expectStatus(write, 403);
    }
    // Another account's own URL does not reach this account's records either.
    const elsewhere = await other.portal('GET', `/history?record=customers/${customerId}`);
    expectStatus(elsewhere, 404);
  });
  it('keeps the newest 200 entries of a record and 90 days, pruned by the retention job', async () => {
    for (let i = 0; i < 205; i++) {
      await updateCustomer(server.ctx, shop.clientId, customerId, {
        phone: `555 1${String(i).padStart(3, '0')}`,
      });
    }
    const count = async () =>
      (
        await server.ctx.db
          .selectFrom('record_changes')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('record_id', '=', customerId)
          .executeTakeFirstOrThrow()
      ).n;
    expect(await count()).toBe(207);
    expect((await server.retention.runNow()).record_changes).toBe(7);
    expect(await count()).toBe(200);
    const newest = expectOk(await shop.portal('GET', `/history?record=customers/${customerId}`));
    expect(newest.body.data[0]).toMatchObject({ new_value: '555 1204' });

    clock.advance(91 * 24 * 60 * 60 * 1000);
    await server.retention.runNow();
    expect(await count()).toBe(0);
  });
});
