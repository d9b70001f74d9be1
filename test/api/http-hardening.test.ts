import net from 'node:net';
import { gzipSync } from 'node:zlib';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const logLines: string[] = [];
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({
    logger: { write: (line) => logLines.push(line) },
    allowedHosts: ['shop.example.lan'],
    timeouts: { idleMs: 300 },
  });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

const expectErrorShape = (body: any, status: number, code: string) => {
  expect(body.error).toMatchObject({ code, type: expect.any(String), message: expect.any(String) });
  expect(body.error.request_id).toMatch(/^req_/);
  return status;
};

describe('DNS rebinding: the Host header', () => {
  it('answers to loopback names, the listen address and configured names', async () => {
    for (const host of [
      `127.0.0.1:${server.port}`,
      `localhost:${server.port}`,
      '[::1]',
      'shop.example.lan:80',
    ]) {
      expect((await rawRequest(server.url, 'GET', '/health', { host })).status, host).toBe(200);
    }
  });

  it('refuses any other name before routing', async () => {
    const response = await rawRequest(server.url, 'GET', `/api/portal/${shop.clientId}/customers`, {
      host: `attacker.example:${server.port}`,
      authorization: `Bearer ${shop.portalKey}`,
    });
    expectStatus(response, 400);
    expectErrorShape(response.json, 400, 'host_not_allowed');
  });
});

describe('CSRF', () => {
  it('refuses a text/plain or form body on writes with 415', async () => {
    for (const type of [
      'text/plain',
      'application/x-www-form-urlencoded',
      'multipart/form-data; boundary=x',
    ]) {
      const response = await shop.portal('POST', '/invoices/create', {
        rawBody: '{"customer_email":"a@example.com"}',
        headers: { 'content-type': type },
      });
      expect(response.status, type).toBe(415);
      expectErrorShape(response.body, 415, 'unsupported_media_type');
    }
  });

  it('refuses cookie-authenticated writes from another origin, even another port of 127.0.0.1', async () => {
    const cookie = await shop.signIn();
    const invoice = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'ada@example.com',
          items: [{ description: 'Clean', quantity: 1, unit_price: 10 }],
        },
      }),
    );
    const path = `/api/portal/${shop.clientId}/invoices/${invoice.body.number}/void`;
    const sameSite = await rawRequest(server.url, 'POST', path, {
      cookie,
      origin: 'http://127.0.0.1:1',
      'sec-fetch-site': 'same-site',
    });
    expectStatus(sameSite, 403);
    expectErrorShape(sameSite.json, 403, 'cross_origin_request');
    const oldBrowser = await rawRequest(server.url, 'POST', path, { cookie, origin: 'http://127.0.0.1:1' });
    expectStatus(oldBrowser, 403);
    const opaque = await rawRequest(server.url, 'POST', path, { cookie, origin: 'null' });
    expectStatus(opaque, 403);
    const regenerate = await rawRequest(
      server.url,
      'POST',
      `/api/portal/${shop.clientId}/integrations/portal-key`,
      {
        cookie,
        'sec-fetch-site': 'cross-site',
      },
    );
    expectStatus(regenerate, 403);
    expect((await shop.portal('GET', '/config')).status).toBe(200);

    const own = await rawRequest(server.url, 'POST', path, {
      cookie,
      origin: server.url,
      'sec-fetch-site': 'same-origin',
    });
    expectStatus(own, 200);
    expect(own.json.status).toBe('void');
  });

  it('leaves key-authenticated writes alone (a browser cannot add the Authorization header)', async () => {
    const response = await rawRequest(
      server.url,
      'POST',
      '/api/v1/clients',
      {
        authorization: `Bearer ${shop.v1Key}`,
        origin: 'https://integration.example',
        'content-type': 'application/json',
      },
      JSON.stringify({ name: 'Grace', email: 'grace@example.com' }),
    );
    expectStatus(response, 201);
  });

  it('does not let a cross-site navigation to a sign-in link replace the session', async () => {
    const { createSignInToken } = await import('../../server/domain/sessions');
    const token = await createSignInToken(server.ctx, shop.clientId);
    const crossSite = await rawRequest(server.url, 'GET', `/sign-in?token=${token}`, {
      'sec-fetch-site': 'same-site',
    });
    expectStatus(crossSite, 200);
    expect(crossSite.headers['set-cookie']).toBeUndefined();
    expect(crossSite.text).toContain('Continue signing in');
    expect(crossSite.headers['content-security-policy']).toContain("frame-ancestors 'none'");

    const confirmed = await rawRequest(server.url, 'GET', `/sign-in?token=${token}`, {
      'sec-fetch-site': 'same-origin',
    });
    expectStatus(confirmed, 303);
    expect(String(confirmed.headers['set-cookie'])).toMatch(/^sd_session_[0-9a-f]{12}=/);

    const typed = await createSignInToken(server.ctx, shop.clientId);
    const fromAddressBar = await rawRequest(server.url, 'GET', `/sign-in?token=${typed}`, {
      'sec-fetch-site': 'none',
    });
    expectStatus(fromAddressBar, 303);
  });
});

describe('framework errors in the contract shape', () => {
  it('answers a malformed percent-escape with 400 and a request id', async () => {
    const response = await shop.v1('GET', '/jobs/%E0%A4%A');
    expectStatus(response, 400);
    expectErrorShape(response.body, 400, 'validation_failed');
  });

  it('answers an over-long path parameter with 404 in the shape', async () => {
    const response = await shop.v1('GET', `/jobs/${'x'.repeat(5000)}`);
    expectStatus(response, 404);
    expectErrorShape(response.body, 404, 'not_found');
  });

  it('does not echo a compressed body back', async () => {
    const response = await shop.portal('POST', '/invoices/create', {
      rawBody: gzipSync('{"customer_email":"a@example.com"}').toString('latin1'),
      headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' },
    });
    expectStatus(response, 415);
    expectErrorShape(response.body, 415, 'unsupported_media_type');
    const garbage = await shop.portal('POST', '/invoices/create', {
      rawBody: '\u0000\u0001binary{',
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(garbage, 400);
    expect(garbage.body.error.message).not.toContain('binary');
  });
});

describe('slow bodies', () => {
  it('closes a connection whose body stalls', async () => {
    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise((resolve) => socket.once('connect', resolve));
    socket.write(
      `POST /api/v1/clients HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${shop.v1Key}\r\n` +
        'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"name":',
    );
    const closed = await new Promise<boolean>((resolve) => {
      const timer = setTimeout(() => resolve(false), 5000);
      socket.once('close', () => {
        clearTimeout(timer);
        resolve(true);
      });
    });
    socket.destroy();
    expect(closed).toBe(true);
  });
});

describe('logging', () => {
  it('logs every request and every server error with its stack', async () => {
    await sql`drop table reviews`.execute(server.ctx.db);
    const failed = await shop.v1('GET', '/reviews');
    expectStatus(failed, 500);
    expectErrorShape(failed.body, 500, 'internal_error');
    const lines = logLines.map((line) => JSON.parse(line));
    const error = lines.find((l) => l.reqId === failed.body.error.request_id && l.level === 50);
    expect(error?.err?.stack).toContain('reviews');
    const summary = lines.find((l) => l.reqId === failed.body.error.request_id && l.msg === 'request');
    expect(summary).toMatchObject({ status: 500, route: '/api/v1/reviews', method: 'GET' });
    expect(summary.duration_ms).toBeGreaterThanOrEqual(0);
  });
});

describe('keep-alive', () => {
  it('tells clients to drop an idle connection before the server closes it', async () => {
    const response = await fetch(`${server.url}/health`);
    await response.arrayBuffer();
    const advertised = /timeout=(\d+)/.exec(response.headers.get('keep-alive') ?? '');
    expect(advertised).not.toBeNull();
    expect(Number(advertised![1]) * 1000).toBeLessThan(300);
  });

  it('keeps a request that waits for the database longer than the idle timeout open', async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => {
      release = resolve;
    });
    // The server's connection busy in a transaction, as behind a write waiting out an import's
    // lock: the portal's session check waits for it, longer than the idle timeout (300 ms).
    const busy = server.ctx.db.transaction().execute(() => held);
    const answer = shop.portal<{ data: unknown[] }>('GET', '/customers');
    setTimeout(release, 1_000);
    await busy;
    expect((await answer).status).toBe(200);
  });
});
