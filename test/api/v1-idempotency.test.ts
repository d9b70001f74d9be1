import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
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
    expectStatus(first, 201);
    expect(first.headers.get('idempotent-replayed')).toBeNull();
    const again = await shop.v1('POST', '/clients', { body, headers: key('create-once') });
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const list = expectOk(await shop.v1('GET', '/clients?q=once'));
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
    expectStatus(reused, 409);
    expect(reused.body.error).toMatchObject({
      type: 'idempotency_error',
      code: 'idempotency_key_reused',
      param: 'Idempotency-Key',
    });
    expect(okBody(await shop.v1('GET', '/clients?q=b%40example.com')).data).toEqual([]);
  });

  it('does not record a payment twice when an action is retried', async () => {
    const invoice = expectOk(
      await shop.v1('POST', '/invoices', {
        body: {
          customer_email: 'payer@example.com',
          items: [{ description: 'Job', quantity: 1, unit_price: 100 }],
          taxes: [],
        },
      }),
    );
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
    const stored = expectOk(await shop.v1('GET', `/invoices/${invoice.body.id}`));
    expect(stored.body).toMatchObject({ amount_paid: 40, balance: 60 });
    expect(stored.body.payments).toHaveLength(1);
  });

  it('keeps keys apart per account', async () => {
    const other = await server.createAccount();
    const body = { name: 'Same', email: 'same@example.com' };
    const mine = expectOk(await shop.v1('POST', '/clients', { body, headers: key('shared-key') }));
    const theirs = await other.v1('POST', '/clients', { body, headers: key('shared-key') });
    expectStatus(theirs, 201);
    expect(theirs.headers.get('idempotent-replayed')).toBeNull();
    expect(theirs.body.id).not.toBe(mine.body.id);
  });

  it('refuses an over-long key with 400 naming the header', async () => {
    const bad = await shop.v1('POST', '/clients', {
      body: { name: 'Long', email: 'long@example.com' },
      headers: key('k'.repeat(256)),
    });
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe('Idempotency-Key');
  });
});

describe('Idempotency-Key and secrets', () => {
  it('never stores a new key in a replay, and checks the owner before replaying', async () => {
    const cookie = await shop.signIn();
    const headers = { cookie, 'Idempotency-Key': 'new-key-once', 'content-type': 'application/json' };
    const created = await server.request('POST', `/api/portal/${shop.clientId}/keys`, {
      rawBody: '{"scopes":["read"]}',
      headers,
    });
    expectStatus(created, 201);
    expect(created.body.key).toMatch(/^sd_live_/);

    const stored = await server.ctx.db.selectFrom('idempotency_keys').select('response').execute();
    expect(stored.some((row) => row.response?.includes(created.body.key))).toBe(false);

    const byPortalKey = await shop.portal('POST', '/keys', {
      rawBody: '{"scopes":["read"]}',
      headers: { 'Idempotency-Key': 'new-key-once', 'content-type': 'application/json' },
    });
    expectStatus(byPortalKey, 403);
    expect(byPortalKey.text).not.toContain('sd_live_');

    const replay = await server.request('POST', `/api/portal/${shop.clientId}/keys`, {
      rawBody: '{"scopes":["read"]}',
      headers,
    });
    expectStatus(replay, 409);
    expect(replay.body.error.code).toBe('idempotency_secret_not_replayable');
    expect(replay.body.error.details).toMatchObject({ id: created.body.id });
    expect(replay.text).not.toContain(created.body.key);
  });

  it('never stores a webhook signing secret in a replay', async () => {
    const body = { url: 'https://example.com/hooks' };
    const created = await shop.v1('POST', '/webhooks', { body, headers: key('hook-once') });
    expectStatus(created, 201);
    const stored = await server.ctx.db.selectFrom('idempotency_keys').select('response').execute();
    expect(stored.some((row) => row.response?.includes(created.body.secret))).toBe(false);
    const replay = await shop.v1('POST', '/webhooks', { body, headers: key('hook-once') });
    expectStatus(replay, 409);
    expect(replay.text).not.toContain(created.body.secret);
    expect(okBody(await shop.v1('GET', '/webhooks')).data).toHaveLength(1);
  });

  it('checks the scope before replaying', async () => {
    const reader = await createKey(server.ctx, shop.clientId, { kind: 'v1', scopes: ['read'] });
    const body = { name: 'Scoped', email: 'scoped@example.com' };
    expect((await shop.v1('POST', '/clients', { body, headers: key('scoped') })).status).toBe(201);
    const replay = await shop.v1('POST', '/clients', { body, headers: key('scoped'), key: reader.key });
    expectStatus(replay, 403);
  });
});

describe('Idempotency-Key after a crash', () => {
  it('releases a claim that was never finished when the server starts again', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-idem-'));
    const first = await startTestServer({ dataDir });
    const account = await first.createAccount();
    await first.ctx.db
      .insertInto('idempotency_keys')
      .values({
        scope: `v1:${account.clientId}`,
        key: 'crashed',
        fingerprint: 'x',
        status_code: null,
        response: null,
        created_at: new Date().toISOString(),
      })
      .execute();
    await first.stop();
    const second = await startTestServer({ dataDir });
    const retry = await second.request('POST', '/api/v1/clients', {
      key: account.v1Key,
      body: { name: 'After crash', email: 'crash@example.com' },
      headers: key('crashed'),
    });
    await second.stop();
    rmSync(dataDir, { recursive: true, force: true });
    expectStatus(retry, 201);
  });
});
