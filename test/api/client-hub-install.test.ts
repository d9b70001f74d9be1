import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * An install serving its own client hub (docs/client-hub.md, "Serving"): the pages read its
 * SQLite, and a customer's action is recorded and applied at once, exactly once.
 */
let office: TestServer;

beforeAll(async () => {
  office = await startTestServer();
}, 120_000);

afterAll(async () => {
  await office?.stop();
});

async function quoteWithLink(account: TestAccount) {
  const customer = expectOk(
    await account.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'maya@example.com' },
    }),
  );
  const quote = expectOk(
    await account.portal('POST', '/quotes/create', {
      body: {
        customer_id: customer.body.id,
        items: [{ description: 'Deep clean', quantity: 2, unit_price: 80 }],
      },
    }),
  );
  await account.portal('POST', `/quotes/${quote.body.number}/mark-sent`);
  const link = await office.ctx.db
    .transaction()
    .execute((tx) => issueClientLink(tx, office.ctx, account.clientId, customer.body.id));
  return { token: link.token, quoteId: quote.body.id as string, number: quote.body.number as string };
}

async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(`${office.url}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function post(path: string, fields: Record<string, string>) {
  return page(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', origin: office.url },
    body: new URLSearchParams(fields).toString(),
  });
}

function formTokenOf(html: string): string {
  return /name="form_token" value="([^"]+)"/.exec(html)![1]!;
}

describe('client hub served by an install', () => {
  it('is not served for a business whose owner did not turn it on', async () => {
    const account = await office.createAccount({ business: 'Shine Windows' });
    const { token } = await quoteWithLink(account);
    const response = await page(`/c/${token}`);
    expectStatus(response, 404);
    expect(response.text).toContain('This link no longer works');
  });

  it('records an approval and applies it at once, exactly once', async () => {
    const account = await office.createAccount({ business: 'Sparkle Cleaning' });
    const config = await account.portal('PUT', '/config', {
      body: { client_hub_url: 'https://shop.example.com', serve_client_hub: true },
    });
    expectStatus(config, 200);
    const { token, quoteId, number } = await quoteWithLink(account);

    const home = await page(`/c/${token}`);
    expectStatus(home, 200);
    expect(home.text).toContain('Sparkle Cleaning');
    expect(home.text).toContain(`Quote ${number}`);
    expect(home.text).toContain('$160.00');

    const quote = await page(`/c/${token}/quotes/${quoteId}`);
    const fields = { form_token: formTokenOf(quote.text), name: 'Maya Chen' };
    const approved = await post(`/c/${token}/quotes/${quoteId}/approve`, fields);
    expectStatus(approved, 303);
    // A second post of the same form (a reload) records nothing more.
    expect((await post(`/c/${token}/quotes/${quoteId}/approve`, fields)).status).toBe(303);

    const after = await page(`/c/${token}/quotes/${quoteId}`);
    expect(after.text).toContain('Approved');
    const stored = expectOk(await account.portal('GET', `/quotes/${number}`));
    expect(stored.body.status).toBe('accepted');
    expect(await account.events('quote.accepted')).toHaveLength(1);
    const actions = await office.ctx.db
      .selectFrom('client_actions')
      .select(['kind', 'status'])
      .where('account_id', '=', account.clientId)
      .execute();
    expect(actions).toEqual([{ kind: 'quote.approve', status: 'applied' }]);
  });
});
