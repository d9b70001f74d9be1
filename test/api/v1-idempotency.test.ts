import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
});
afterAll(() => server.stop());

const key = (value: string) => ({ 'Idempotency-Key': value });

describe('v1 Idempotency-Key', () => {
  it('replays the stored response for a repeated POST and creates the record once', async () => {
    const body = { name: 'Once', email: 'once@example.com' };
    const first = await shop.v1('POST', '/clients', { body, headers: key('create-once') });
    expect(first.status).toBe(201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await shop.v1('POST', '/clients', { body, headers: key('create-once') });
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = await shop.v1('GET', '/clients?q=once');
    expect(list.body.data).toHaveLength(1);
  });

  it('refuses the same key with another body with 409', async () => {
    await shop.v1('POST', '/clients', {
      body: { name: 'A', email: 'a@example.com' },
      headers: key('reused'),
    });
    const reused = await shop.v1('POST', '/clients', {
      body: { name: 'B', email: 'b@example.com' },
      headers: key('reused'),
    });
    expect(reused.status).toBe(409);
    expect(reused.body.error).toMatchObject({
      type: 'idempotency_error',
      code: 'idempotency_key_reused',
      param: 'Idempotency-Key',
    });
    expect((await shop.v1('GET', '/clients?q=b%40example.com')).body.data).toEqual([]);
  });

  it('does not record a payment twice when an action is retried', async () => {
    const invoice = await shop.v1('POST', '/invoices', {
      body: {
        customer_email: 'payer@example.com',
        items: [{ description: 'Job', quantity: 1, unit_price: 100 }],
        taxes: [],
      },
    });
    await shop.v1('POST', `/invoices/${invoice.body.id}/send`);
    const pay = () =>
      shop.v1('POST', `/invoices/${invoice.body.id}/payments`, {
        body: { amount: 40 },
        headers: key('pay-40'),
      });
    const first = await pay();
    const retry = await pay();
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(retry.body).toEqual(first.body);
    const stored = await shop.v1('GET', `/invoices/${invoice.body.id}`);
    expect(stored.body).toMatchObject({ amount_paid: 40, balance: 60 });
    expect(stored.body.payments).toHaveLength(1);
  });

  it('keeps keys apart per account', async () => {
    const other = await server.createAccount();
    const body = { name: 'Same', email: 'same@example.com' };
    const mine = await shop.v1('POST', '/clients', { body, headers: key('shared-key') });
    const theirs = await other.v1('POST', '/clients', { body, headers: key('shared-key') });
    expect(theirs.status).toBe(201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('refuses an over-long key with 400 naming the header', async () => {
    const bad = await shop.v1('POST', '/clients', {
      body: { name: 'Long', email: 'long@example.com' },
      headers: key('k'.repeat(256)),
    });
    expect(bad.status).toBe(400);
    expect(bad.body.error.param).toBe('Idempotency-Key');
  });
});
