import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { serve } from './processes';

/**
 * Invariant 13 (docs/sync.md): a retried request never runs twice. A real server process is killed
 * (SIGKILL, through the test-only fault seam SHOPDESK_FAULT, docs/decisions.md) right after the
 * commit of a request's write, before it answers; the server starts again on the same folder and
 * the client retries with the same Idempotency-Key: the retry gets the first answer, and the
 * payment or customer exists once.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-idem-crash-'));
let setup: TestServer;
let shop: TestAccount;
const invoices: { portal: string; v1: string } = { portal: '', v1: '' };

beforeAll(async () => {
  setup = await startTestServer({ dataDir });
  shop = await setup.createAccount({ business: 'Crash Test Cleaning' });
  for (const iface of ['portal', 'v1'] as const) {
    const made = await shop.v1('POST', '/invoices', {
      body: {
        customer_email: `${iface}-payer@example.com`,
        items: [{ description: 'Deep clean', quantity: 1, unit_price: 100 }],
        taxes: [],
      },
    });
    expectStatus(made, 201);
    expect((await shop.v1('POST', `/invoices/${made.body.id}/send`)).status).toBe(200);
    invoices[iface] = iface === 'portal' ? made.body.number : made.body.id;
  }
  await setup.stop();
}, 120_000);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

interface Call {
  path: string;
  key: string;
  body: unknown;
}

/** The request, sent to a server process that dies right after the write commits; then the retry. */
async function crashThenRetry(call: Call): Promise<{ retried: Response; body: any; server: TestServer }> {
  const doomed = serve(dataDir, { SHOPDESK_FAULT: 'crash-after-commit:idempotency' });
  const url = await doomed.url;
  const headers = {
    authorization: `Bearer ${call.path.startsWith('/api/v1') ? shop.v1Key : shop.portalKey}`,
    'content-type': 'application/json',
    'idempotency-key': call.key,
  };
  const lost = await fetch(`${url}${call.path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(call.body),
  }).then(
    () => 'answered',
    () => 'no answer',
  );
  expect(lost).toBe('no answer');
  const outcome = await doomed.exited;
  expect(doomed.child.signalCode).toBe('SIGKILL');
  expect(outcome.stderr).not.toMatch(/Error/);

  const server = await startTestServer({ dataDir });
  const retried = await fetch(`${server.url}${call.path}`, {
    method: 'POST',
    headers,
    body: JSON.stringify(call.body),
  });
  return { retried, body: await retried.json(), server };
}

async function paymentsOf(server: TestServer, ref: string): Promise<number> {
  const rows = await server.ctx.db
    .selectFrom('payments')
    .innerJoin('invoices', 'invoices.id', 'payments.invoice_id')
    .select('payments.id')
    .where((eb) => eb.or([eb('invoices.id', '=', ref), eb('invoices.number', '=', ref)]))
    .execute();
  return rows.length;
}

describe('a request retried after the server was killed between its commit and its answer', () => {
  it('records a portal payment once and answers the retry as the first time', async () => {
    const { retried, body, server } = await crashThenRetry({
      path: `/api/portal/${shop.clientId}/invoices/${invoices.portal}/payment`,
      key: 'portal-pay-40',
      body: { amount: 40, method: 'card' },
    });
    try {
      expectStatus(retried, 200);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(body).toMatchObject({ number: invoices.portal, amount_paid: 40, balance: 60 });
      expect(body.payments).toHaveLength(1);
      expect(await paymentsOf(server, invoices.portal)).toBe(1);
    } finally {
      await server.stop();
    }
  }, 120_000);

  it('records a v1 payment once and answers the retry as the first time', async () => {
    const { retried, body, server } = await crashThenRetry({
      path: `/api/v1/invoices/${invoices.v1}/payments`,
      key: 'v1-pay-40',
      body: { amount: 40, method: 'card' },
    });
    try {
      expectStatus(retried, 200);
      expect(retried.headers.get('idempotent-replayed')).toBe('true');
      expect(body).toMatchObject({ id: invoices.v1, amount_paid: 40, balance: 60 });
      expect(body.payments).toHaveLength(1);
      expect(await paymentsOf(server, invoices.v1)).toBe(1);
    } finally {
      await server.stop();
    }
  }, 120_000);

  for (const iface of ['portal', 'v1'] as const) {
    it(`creates a ${iface} customer once and answers the retry with 201 and the same id`, async () => {
      const email = `${iface}-once@example.com`;
      const { retried, body, server } = await crashThenRetry({
        path: iface === 'portal' ? `/api/portal/${shop.clientId}/customers` : '/api/v1/clients',
        key: `${iface}-create-once`,
        body: { name: 'Once Only', email },
      });
      try {
        expectStatus(retried, 201);
        expect(retried.headers.get('idempotent-replayed')).toBe('true');
        const stored = await server.ctx.db
          .selectFrom('customers')
          .select('id')
          .where('account_id', '=', shop.clientId)
          .where('email', '=', email)
          .execute();
        expect(stored).toHaveLength(1);
        expect(body).toMatchObject({ id: stored[0]!.id, email });
      } finally {
        await server.stop();
      }
    }, 120_000);
  }
});
