import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../server/db/storage-errors';
import { setPlans } from '../../server/domain/accounts';
import { createKey, revokeKey, rotateKey } from '../../server/domain/api-keys';
import { manualClock } from '../../server/lib/clock';
import { attachWithoutCapture } from '../../server/sync/capture';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const DAY_MS = 24 * 60 * 60 * 1000;
const clock = manualClock('2026-11-22T09:00:00Z');
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

describe('v1 keys', () => {
  it('refuses a request without a key, or with a malformed header, with 401', async () => {
    const missing = await shop.v1('GET', '/clients', { key: null });
    expectStatus(missing, 401);
    expect(missing.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthorized' });
    const malformed = await shop.v1('GET', '/clients', {
      key: null,
      headers: { authorization: 'Basic abc' },
    });
    expectStatus(malformed, 401);
    const unknown = await shop.v1('GET', '/clients', { key: 'sd_live_0000000000000000000000000000000' });
    expectStatus(unknown, 401);
    expect(unknown.body.error.code).toBe('unauthorized');
  });

  it('serves a live key and a test key on the same data', async () => {
    const created = await shop.v1('POST', '/clients', { body: { name: 'Live', email: 'live@example.com' } });
    expectStatus(created, 201);
    const testKey = await createKey(server.ctx, shop.clientId, { kind: 'v1', mode: 'test' });
    expect(testKey.key).toMatch(/^sd_test_[0-9A-Za-z]{32}$/);
    const seen = await shop.v1('GET', `/clients/${created.body.id}`, { key: testKey.key });
    expectStatus(seen, 200);
    expect(seen.body.email).toBe('live@example.com');
  });

  it('refuses the portal key and the feed token with 403 forbidden', async () => {
    const portal = await shop.v1('GET', '/clients', { key: shop.portalKey });
    expectStatus(portal, 403);
    expect(portal.body.error).toMatchObject({ type: 'permission_error', code: 'forbidden' });
    const feed = await createKey(server.ctx, shop.clientId, { kind: 'feed' });
    const byFeed = await shop.v1('GET', '/clients', { key: feed.key });
    expectStatus(byFeed, 403);
    expect(byFeed.body.error.code).toBe('forbidden');
  });

  it('keeps v1 keys off the portal', async () => {
    const onPortal = await shop.portal('GET', '/customers', { key: shop.v1Key });
    expectStatus(onPortal, 403);
  });

  it('needs the read scope for GET and the write scope for POST, PATCH and DELETE', async () => {
    const readOnly = await createKey(server.ctx, shop.clientId, { kind: 'v1', scopes: ['read'] });
    expect((await shop.v1('GET', '/clients', { key: readOnly.key })).status).toBe(200);
    for (const [method, path] of [
      ['POST', '/clients'],
      ['PATCH', '/clients/cus_01jd3k5x2m9q7r8s6t4v2w0y1z'],
      ['DELETE', '/clients/cus_01jd3k5x2m9q7r8s6t4v2w0y1z'],
    ] as const) {
      const refused = await shop.v1(method, path, {
        key: readOnly.key,
        body: method === 'DELETE' ? undefined : { name: 'X' },
      });
      expectStatus(refused, 403);
      expect(refused.body.error.code).toBe('insufficient_scope');
      expect(refused.body.error.message).toContain('write');
      expect(refused.headers.get('x-ratelimit-remaining')).not.toBeNull();
    }
    const writeOnly = await createKey(server.ctx, shop.clientId, { kind: 'v1', scopes: ['write'] });
    const noRead = await shop.v1('GET', '/clients', { key: writeOnly.key });
    expectStatus(noRead, 403);
    expect(noRead.body.error).toMatchObject({
      code: 'insufficient_scope',
      details: { required_scope: 'read' },
    });
  });

  it('keeps a rotated-out secret working for 7 days with X-Key-Expires-At, then answers api_key_expired', async () => {
    const key = await createKey(server.ctx, shop.clientId, { kind: 'v1' });
    clock.set('2026-11-22T10:00:00Z');
    const rotated = await rotateKey(server.ctx, shop.clientId, key.id);

    const fresh = await shop.v1('GET', '/clients', { key: rotated.key });
    expectStatus(fresh, 200);
    expect(fresh.headers.get('x-key-expires-at')).toBeNull();

    clock.advance(7 * DAY_MS - 1000);
    const inGrace = await shop.v1('GET', '/clients', { key: key.key });
    expectStatus(inGrace, 200);
    expect(inGrace.headers.get('x-key-expires-at')).toBe('2026-11-29T10:00:00Z');

    clock.advance(1000);
    const expired = await shop.v1('GET', '/clients', { key: key.key });
    expectStatus(expired, 401);
    expect(expired.body.error.code).toBe('api_key_expired');
    expect((await shop.v1('GET', '/clients', { key: rotated.key })).status).toBe(200);
  });

  it('keeps only the current and the previous secret when a key is rotated twice', async () => {
    const key = await createKey(server.ctx, shop.clientId, { kind: 'v1' });
    const second = await rotateKey(server.ctx, shop.clientId, key.id);
    const third = await rotateKey(server.ctx, shop.clientId, key.id);
    const oldest = await shop.v1('GET', '/clients', { key: key.key });
    expectStatus(oldest, 401);
    expect(oldest.body.error.code).toBe('api_key_expired');
    expect((await shop.v1('GET', '/clients', { key: second.key })).status).toBe(200);
    expect((await shop.v1('GET', '/clients', { key: third.key })).status).toBe(200);
  });

  it('refuses a revoked key with 401', async () => {
    const key = await createKey(server.ctx, shop.clientId, { kind: 'v1' });
    expect((await shop.v1('GET', '/clients', { key: key.key })).status).toBe(200);
    await revokeKey(server.ctx, shop.clientId, key.id);
    const revoked = await shop.v1('GET', '/clients', { key: key.key });
    expectStatus(revoked, 401);
    expect(revoked.body.error.code).toBe('unauthorized');
  });

  it('refuses an account without an API plan with 403 plan_required, and serves it once it has one', async () => {
    const other = await server.createAccount({ apiPlan: 'none' });
    const refused = await other.v1('GET', '/clients');
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
    await setPlans(server.ctx, other.clientId, { apiPlan: 'lite' });
    expect((await other.v1('GET', '/clients')).status).toBe(200);
  });

  it('applies a plan changed by another process (the CLI) or by any write of its own from the next request on', async () => {
    const other = await server.createAccount({ apiPlan: 'lite' });
    expect((await other.v1('GET', '/clients')).status).toBe(200);
    expect((await other.v1('GET', '/clients')).status).toBe(200);
    const cli = new SQLite(path.join(server.dataDir, DATABASE_FILE));
    try {
      attachWithoutCapture(cli);
      cli.prepare("UPDATE accounts SET api_plan = 'none' WHERE id = ?").run(other.clientId);
    } finally {
      cli.close();
    }
    const refused = await other.v1('GET', '/clients');
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
    // Not through setPlans: a write on the server's own connection that no cache was told of.
    await sql`UPDATE accounts SET api_plan = 'essential' WHERE id = ${other.clientId}`.execute(server.ctx.db);
    const served = expectOk(await other.v1('GET', '/clients'));
    expect(served.headers.get('x-ratelimit-limit')).toBe('1000');
  });

  it("never shows one account's records to another account's key", async () => {
    const other = await server.createAccount();
    const mine = expectOk(
      await shop.v1('POST', '/clients', { body: { name: 'Mine', email: 'mine@example.com' } }),
    );
    const theirs = await other.v1('GET', `/clients/${mine.body.id}`);
    expectStatus(theirs, 404);
    const list = expectOk(await other.v1('GET', '/clients'));
    expect(list.body.data).toEqual([]);
  });

  it('answers an unknown v1 route with 404 not_found', async () => {
    for (const method of ['GET', 'POST']) {
      const unknown = await shop.v1(method, '/nothing-here', { body: method === 'POST' ? {} : undefined });
      expectStatus(unknown, 404);
      expect(unknown.body.error.code).toBe('not_found');
    }
  });
});
