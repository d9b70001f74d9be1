import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../../server/db/storage-errors';
import { createKey, revokeKey, rotateKey } from '../../server/domain/api-keys';
import { sessionCookieName } from '../../server/http/session';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, type OpenApiDocument, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const clock = manualClock('2026-11-22T09:00:30Z');
let server: TestServer;
let shop: TestAccount;
let other: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
  other = await server.createAccount({ business: 'Other Co' });
});
afterAll(() => server.stop());

describe('portal authentication and scoping', () => {
  it('refuses a request without a key', async () => {
    const response = await shop.portal('GET', '/customers', { key: null });
    expectStatus(response, 401);
    expect(response.body.error).toMatchObject({ type: 'authentication_error', code: 'unauthorized' });
  });

  it('refuses an unknown key and a malformed header', async () => {
    expect((await shop.portal('GET', '/customers', { key: 'sd_portal_nope' })).status).toBe(401);
    const malformed = await server.request('GET', `/api/portal/${shop.clientId}/customers`, {
      headers: { authorization: 'Basic abc' },
    });
    expectStatus(malformed, 401);
  });

  it("refuses a key used under another account's client_id", async () => {
    const response = await other.portal('GET', '/customers', { key: shop.portalKey });
    expectStatus(response, 403);
    expect(response.body.error.code).toBe('forbidden');
  });

  it('refuses a v1 key on a portal path', async () => {
    const response = await shop.portal('GET', '/customers', { key: shop.v1Key });
    expectStatus(response, 403);
    expect(response.body.error.code).toBe('forbidden');
  });

  it('refuses a revoked or replaced portal key', async () => {
    const fresh = await createKey(server.ctx, other.clientId, { kind: 'portal' });
    expect((await other.portal('GET', '/config', { key: other.portalKey })).status).toBe(401);
    expect((await other.portal('GET', '/config', { key: fresh.key })).status).toBe(200);
    await revokeKey(server.ctx, other.clientId, fresh.id);
    expect((await other.portal('GET', '/config', { key: fresh.key })).status).toBe(401);
  });

  it('refuses a key revoked by another process (the CLI) from the next request on', async () => {
    const fresh = await createKey(server.ctx, other.clientId, { kind: 'portal' });
    expect((await other.portal('GET', '/config', { key: fresh.key })).status).toBe(200);
    expect((await other.portal('GET', '/config', { key: fresh.key })).status).toBe(200);
    const cli = new SQLite(path.join(server.dataDir, DATABASE_FILE));
    try {
      cli
        .prepare('UPDATE api_keys SET revoked_at = ? WHERE id = ?')
        .run('2026-11-22T09:00:30.000Z', fresh.id);
    } finally {
      cli.close();
    }
    expect((await other.portal('GET', '/config', { key: fresh.key })).status).toBe(401);
  });

  it('takes a secret refused once as soon as a key with it exists', async () => {
    const refused = await other.portal('GET', '/config', { key: 'sd_portal_not_yet' });
    expectStatus(refused, 401);
    const fresh = await createKey(server.ctx, other.clientId, { kind: 'portal' });
    expect((await other.portal('GET', '/config', { key: 'sd_portal_not_yet' })).status).toBe(401);
    expect((await other.portal('GET', '/config', { key: fresh.key })).status).toBe(200);
  });

  it('refuses the secrets a rotation retired, from the next request on', async () => {
    const key = await createKey(server.ctx, shop.clientId, { kind: 'v1' });
    expect((await shop.v1('GET', '/clients', { key: key.key })).status).toBe(200);
    const second = await rotateKey(server.ctx, shop.clientId, key.id);
    await rotateKey(server.ctx, shop.clientId, key.id);
    // The first secret had its grace period; rotated twice, it is retired at once (contract part 2).
    expect((await shop.v1('GET', '/clients', { key: key.key })).status).toBe(401);
    expect((await shop.v1('GET', '/clients', { key: second.key })).status).toBe(200);
  });

  it('answers unknown routes with 404 in the error shape', async () => {
    const response = await shop.portal('GET', '/nothing-here');
    expectStatus(response, 404);
    expect(response.body.error.code).toBe('not_found');
  });
});

describe('plans', () => {
  it('lets the basic plan read but not write', async () => {
    const basic = await server.createAccount({ business: 'Basic Co', plan: 'basic' });
    expect((await basic.portal('GET', '/customers')).status).toBe(200);
    const write = await basic.portal('POST', '/customers', { body: { name: 'A', email: 'a@example.com' } });
    expectStatus(write, 403);
    expect(write.body.error).toMatchObject({ type: 'permission_error', code: 'plan_required' });
    const put = expectError(await basic.portal('PUT', '/config', { body: { business_name: 'New name' } }));
    expect(put.body.error.code).toBe('plan_required');
  });
});

describe('request bodies', () => {
  it('refuses a body that is not JSON with 415', async () => {
    const response = await shop.portal('POST', '/customers', {
      rawBody: 'name=A',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectStatus(response, 415);
    expect(response.body.error.code).toBe('unsupported_media_type');
  });

  it('refuses a body over 1 MB with 413', async () => {
    const response = await shop.portal('POST', '/customers/x%40example.com/notes', {
      body: { text: 'x'.repeat(1_100_000) },
    });
    expectStatus(response, 413);
    expect(response.body.error.code).toBe('payload_too_large');
  });
});

describe('idempotency', () => {
  it('replays the stored response and refuses the same key with another body', async () => {
    const body = { name: 'Idem Potent', email: 'idem@example.com' };
    const headers = { 'idempotency-key': 'create-idem-1' };
    const first = await shop.portal('POST', '/customers', { body, headers });
    expectStatus(first, 201);
    const again = await shop.portal('POST', '/customers', { body, headers });
    expectStatus(again, 201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    const changed = await shop.portal('POST', '/customers', { body: { ...body, name: 'Other' }, headers });
    expectStatus(changed, 409);
    expect(changed.body.error).toMatchObject({ type: 'idempotency_error', code: 'idempotency_key_reused' });
  });

  it('runs the request again after 24 hours', async () => {
    const headers = { 'idempotency-key': 'note-after-a-day' };
    const body = { text: 'Prefers mornings' };
    await shop.portal('POST', '/customers/idem%40example.com/notes', { body, headers });
    clock.advance(24 * 60 * 60 * 1000 + 1000);
    const later = expectOk(
      await shop.portal('POST', '/customers/idem%40example.com/notes', { body, headers }),
    );
    expect(later.headers.get('idempotent-replayed')).toBeNull();
    expect(later.body.notes).toHaveLength(2);
  });
});

describe('rate limit', () => {
  it('allows 100 requests a minute per key, then answers 429 with Retry-After', async () => {
    const limited = await server.createAccount({ business: 'Busy Co' });
    clock.set('2026-11-24T10:00:00Z');
    let last = await limited.portal('GET', '/config');
    expect(last.headers.get('x-ratelimit-limit')).toBe('100');
    expect(last.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(last.headers.get('x-ratelimit-reset')).toBe(String(Date.parse('2026-11-24T10:01:00Z') / 1000));
    for (let i = 0; i < 99; i++) last = await limited.portal('GET', '/config');
    expectStatus(last, 200);
    expect(last.headers.get('x-ratelimit-remaining')).toBe('0');
    clock.advance(15_000);
    const refused = await limited.portal('GET', '/config');
    expectStatus(refused, 429);
    expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
    expect(refused.headers.get('retry-after')).toBe('45');
    clock.advance(45_000);
    const next = await limited.portal('GET', '/config');
    expectStatus(next, 200);
    expect(next.headers.get('x-ratelimit-remaining')).toBe('99');
  });

  it('counts each key separately', async () => {
    const response = await shop.portal('GET', '/config');
    expect(Number(response.headers.get('x-ratelimit-remaining'))).toBeGreaterThan(50);
  });
});

describe('config', () => {
  it('changes a subset, refuses unknown fields and never returns the SMTP password', async () => {
    const put = await shop.portal('PUT', '/config', {
      body: {
        business_name: 'Sparkle & Shine',
        default_taxes: [{ name: 'GST', rate: 0.05 }],
        smtp: { host: '127.0.0.1', port: 2525, password: 'hunter2' },
      },
    });
    expectStatus(put, 200);
    expect(put.body).toMatchObject({
      business_name: 'Sparkle & Shine',
      currency: 'CAD',
      default_due_days: 30,
    });
    expect(put.body.smtp).toMatchObject({ host: '127.0.0.1', password_set: true });
    expect(JSON.stringify(put.body)).not.toContain('hunter2');

    const unknown = await shop.portal('PUT', '/config', { body: { colour: 'blue' } });
    expectStatus(unknown, 400);
    expect(unknown.body.error.param).toBe('colour');
    const badZone = expectError(await shop.portal('PUT', '/config', { body: { timezone: 'Mars/Olympus' } }));
    expect(badZone.body.error.param).toBe('timezone');
  });
});

describe('UI session', () => {
  it('signs in once with the link and then calls the portal with the cookie', async () => {
    const cookie = await shop.signIn();
    expect(cookie.split('=')[0]).toBe(sessionCookieName(server.dataDir));
    const session = expectOk(await server.request('GET', '/api/session', { headers: { cookie } }));
    expect(session.body).toMatchObject({ client_id: shop.clientId, plan: 'platform' });
    // The UI shows dates with the business's zone from the session, not the whole table.
    expect(session.body.zone.zones).toEqual([expect.stringMatching(`^${session.body.timezone}\\|`)]);
    const customers = await server.request('GET', `/api/portal/${shop.clientId}/customers`, {
      headers: { cookie },
    });
    expectStatus(customers, 200);
    const elsewhere = await server.request('GET', `/api/portal/${other.clientId}/customers`, {
      headers: { cookie },
    });
    expectStatus(elsewhere, 403);
  });

  it('lets the signed-in owner create a v1 key, but not a caller holding only the portal key', async () => {
    const cookie = await shop.signIn();
    const created = await server.request('POST', `/api/portal/${shop.clientId}/keys`, {
      headers: { cookie },
      body: { scopes: ['read'], name: 'Accounting sync' },
    });
    expectStatus(created, 201);
    expect(created.body.key).toMatch(/^sd_live_[0-9A-Za-z]{32}$/);
    const listed = expectOk(
      await server.request('GET', `/api/portal/${shop.clientId}/integrations`, {
        headers: { cookie },
      }),
    );
    expect(JSON.stringify(listed.body)).not.toContain(created.body.key);
    expect((await shop.portal('POST', '/keys', { body: {} })).status).toBe(403);
  });

  it('refuses a used sign-in link', async () => {
    const { createSignInToken } = await import('../../server/domain/sessions');
    const token = await createSignInToken(server.ctx, shop.clientId);
    expect((await server.request('GET', `/sign-in?token=${token}`)).status).toBe(303);
    const reused = await server.request('GET', `/sign-in?token=${token}`);
    expectStatus(reused, 401);
    // A person opened it: a page that says what to do, not the API's JSON.
    expect(reused.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(reused.text).toContain('This sign-in link was already used or has expired.');
    expect(reused.text).toContain('npm run --silent cli -- sign-in');
    expect((await server.request('GET', '/sign-in')).headers.get('content-type')).toContain('text/html');
  });
});

describe('service routes', () => {
  it('answers /health without a key and serves the OpenAPI document', async () => {
    expect(okBody(await server.request('GET', '/health'))).toEqual({ status: 'ok' });
    const openapi = await server.request<OpenApiDocument>('GET', '/openapi.json');
    expect(openapi.body.openapi).toMatch(/^3\./);
    expect(openapi.body.paths['/api/portal/{client_id}/customers']?.get).toBeDefined();
    const docs = await server.request('GET', '/docs/');
    expectStatus(docs, 200);
  });
});
