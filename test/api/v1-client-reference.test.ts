import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, expectStatus, type OpenApiDocument, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let other: TestAccount;
let clientId: string;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
  other = await server.createAccount({ business: 'Other' });
  clientId = okBody(
    await shop.v1('POST', '/clients', { body: { name: 'Ada Lovelace', email: 'Ada@example.com' } }),
  ).id;
});
afterAll(() => server.stop());

const items = [{ description: 'Deep clean', quantity: 1, unit_price: 100 }];
const creates: Array<[string, Record<string, unknown>]> = [
  ['/jobs', { title: 'Deep clean' }],
  ['/quotes', { items }],
  ['/invoices', { items }],
  ['/bookings', { service: 'Deep clean', start: '2026-12-01T15:00:00Z', end: '2026-12-01T17:00:00Z' }],
  ['/reviews', { rating: 5 }],
];

describe('v1 creates name their client by client_id', () => {
  it('accepts client_id in place of customer_email on every create', async () => {
    for (const [path, body] of creates) {
      const created = expectOk(
        await shop.v1<{ customer: { id: string } }>('POST', path, { body: { ...body, client_id: clientId } }),
      );
      expect(created.status, `${path} ${created.text}`).toBe(201);
      expect(created.body.customer.id, path).toBe(clientId);
    }
  });

  it('accepts both when they name the same client (e-mail in any case)', async () => {
    const created = await shop.v1('POST', '/jobs', {
      body: { title: 'Windows', client_id: clientId, customer_email: 'ada@EXAMPLE.com' },
    });
    expectStatus(created, 201);
    expect(created.body.customer.id).toBe(clientId);
  });

  it('refuses a client_id and a customer_email that disagree, with a clear error', async () => {
    const response = await shop.v1('POST', '/invoices', {
      body: { items, client_id: clientId, customer_email: 'grace@example.com' },
    });
    expectStatus(response, 400);
    expect(response.body.error).toMatchObject({ code: 'validation_failed', param: 'client_id' });
    expect(response.body.error.message).toContain('Ada@example.com');
  });

  it("refuses an unknown client_id or another account's", async () => {
    const foreign = okBody(
      await other.v1('POST', '/clients', { body: { name: 'Z', email: 'z@example.com' } }),
    ).id;
    for (const id of ['cus_00000000000000000000000000', foreign]) {
      const response = expectError(await shop.v1('POST', '/jobs', { body: { title: 'X', client_id: id } }));
      expect(response.status, id).toBe(400);
      expect(response.body.error.param).toBe('client_id');
    }
  });

  it('needs one of them where a client is required', async () => {
    const response = await shop.v1('POST', '/jobs', { body: { title: 'Nobody' } });
    expectStatus(response, 400);
    expect(response.body.error.param).toBe('client_id');
    expect(
      (await shop.v1('POST', '/jobs', { body: { title: 'Email', customer_email: 'new@example.com' } }))
        .status,
    ).toBe(201);
  });

  it('documents client_id on the create bodies', async () => {
    const doc = okBody(await server.request<OpenApiDocument>('GET', '/openapi.json'));
    for (const name of [
      'JobCreateV1',
      'InvoiceCreateV1',
      'QuoteCreateV1',
      'BookingCreateV1',
      'ReviewCreateV1',
    ]) {
      const schema = doc.components.schemas[`${name}Input`] ?? doc.components.schemas[name];
      expect(Object.keys(schema!.properties), name).toEqual(
        expect.arrayContaining(['client_id', 'customer_email']),
      );
    }
  });
});
