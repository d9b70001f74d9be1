import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BODY_LIMIT_BYTES } from '../../server/http/app';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { RawConnection } from '../helpers/raw-http';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
const routes: { name: string; path: string; key: () => string }[] = [];

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
  const items = [{ description: 'Clean', quantity: 1, unit_price: 10 }];
  const invoice = expectOk(
    await shop.portal('POST', '/invoices/create', {
      body: { customer_email: 'ada@example.com', items },
    }),
  );
  const quote = expectOk(
    await shop.portal('POST', '/quotes/create', {
      body: { customer_email: 'ada@example.com', items },
    }),
  );
  const job = expectOk(
    await shop.portal('POST', '/jobs/create', {
      body: { customer_email: 'ada@example.com', title: 'Clean' },
    }),
  );
  const portal = `/api/portal/${shop.clientId}`;
  routes.push(
    {
      name: 'portal invoice send',
      path: `${portal}/invoices/${invoice.body.number}/send`,
      key: () => shop.portalKey,
    },
    {
      name: 'portal job complete',
      path: `${portal}/jobs/${job.body.job_number}/complete`,
      key: () => shop.portalKey,
    },
    { name: 'v1 invoice send', path: `/api/v1/invoices/${invoice.body.id}/send`, key: () => shop.v1Key },
    { name: 'v1 quote accept', path: `/api/v1/quotes/${quote.body.id}/accept`, key: () => shop.v1Key },
    { name: 'v1 job start', path: `/api/v1/jobs/${job.body.id}/start`, key: () => shop.v1Key },
    { name: 'portal customer create', path: `${portal}/customers`, key: () => shop.portalKey },
    { name: 'sync push', path: '/api/sync/v1/push', key: () => 'sd_sync_unknown' },
  );
});
afterAll(() => server.stop());

const head = (path: string, key: string, framing: string) =>
  `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${key}\r\n` +
  `Content-Type: application/json\r\n${framing}\r\n\r\n`;

const expectTooLarge = (response: { status: number; json: any }) => {
  expectStatus(response, 413);
  expect(response.json.error).toMatchObject({ type: 'invalid_request_error', code: 'payload_too_large' });
  expect(response.json.error.request_id).toMatch(/^req_/);
};

/** The connection is still usable: the refused body was read to its end and the next request is served. */
const expectStillServing = async (connection: RawConnection) => {
  await connection.write('GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n');
  const health = await connection.nextResponse();
  expectStatus(health, 200);
  expect(health.json).toEqual({ status: 'ok' });
};

describe('a body over the limit', () => {
  it('is answered 413 in the error shape on every kind of route while the client is still sending it', async () => {
    const size = BODY_LIMIT_BYTES * 2;
    const first = 64 * 1024;
    for (const route of routes) {
      const connection = await RawConnection.open(server.url);
      try {
        await connection.write(head(route.path, route.key(), `Content-Length: ${size}`));
        await connection.write(Buffer.alloc(first, 'x'));
        const answer = await connection.nextResponse();
        expectTooLarge(answer);
        expect(answer.headers.connection, route.name).not.toBe('close');
        await connection.write(Buffer.alloc(size - first, 'x'));
        await expectStillServing(connection);
      } finally {
        connection.close();
      }
    }
  });

  it('is answered 413 when it comes in chunks without a declared length', async () => {
    for (const route of routes.slice(0, 3)) {
      const connection = await RawConnection.open(server.url);
      try {
        await connection.write(head(route.path, route.key(), 'Transfer-Encoding: chunked'));
        const chunk = Buffer.alloc(64 * 1024, 'x');
        const framed = Buffer.concat([
          Buffer.from(`${chunk.length.toString(16)}\r\n`),
          chunk,
          Buffer.from('\r\n'),
        ]);
        for (let sent = 0; sent <= BODY_LIMIT_BYTES; sent += chunk.length) await connection.write(framed);
        expectTooLarge(await connection.nextResponse());
        for (let i = 0; i < 4; i++) await connection.write(framed);
        await connection.write('0\r\n\r\n');
        await expectStillServing(connection);
      } finally {
        connection.close();
      }
    }
  });
});

describe('a refused body that never ends', () => {
  let strict: TestServer;
  let account: TestAccount;
  beforeAll(async () => {
    strict = await startTestServer({ timeouts: { drainMs: 500 } });
    account = await strict.createAccount();
  });
  afterAll(() => strict.stop());

  it('is read for drainMs, then the connection is cut', async () => {
    const connection = await RawConnection.open(strict.url);
    const trickle = setInterval(() => connection.write(Buffer.alloc(1024, 'x')).catch(() => {}), 50);
    try {
      await connection.write(
        head('/api/v1/clients', account.v1Key, `Content-Length: ${BODY_LIMIT_BYTES * 1000}`),
      );
      expectTooLarge(await connection.nextResponse());
      await connection.closed;
    } finally {
      clearInterval(trickle);
      connection.close();
    }
  });
});
