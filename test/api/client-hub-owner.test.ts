import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * The owner's side of the client hub (docs/client-hub.md): issuing and revoking a customer's
 * links, the actions waiting, answering one; only the business's own key may.
 */
let office: TestServer;
let shop: TestAccount;
let stranger: TestAccount;
let customerId: string;

async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(`${office.url}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, text: await response.text() };
}

beforeAll(async () => {
  office = await startTestServer();
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
  stranger = await office.createAccount({ business: 'Shine Windows' });
  customerId = okBody(
    await shop.portal('POST', '/customers', { body: { name: 'Maya Chen', email: 'maya@example.com' } }),
  ).id;
}, 120_000);

afterAll(async () => {
  await office?.stop();
});

describe("client hub, the owner's side", () => {
  it('issues a link only once the address is set, and revokes them', async () => {
    const early = await shop.portal('POST', `/customers/${customerId}/client-link`);
    expectStatus(early, 409);
    await shop.portal('PUT', '/config', { body: { client_hub_url: office.url, serve_client_hub: true } });
    const issued = await shop.portal('POST', `/customers/${customerId}/client-link`);
    expectStatus(issued, 201);
    const path = new URL(issued.body.url).pathname;
    expect((await page(path)).status).toBe(200);
    const revoked = expectOk(await shop.portal('POST', `/customers/${customerId}/client-links/revoke`));
    expect(revoked.body).toEqual({ revoked: 1 });
    expect((await page(path)).status).toBe(404);
  });

  it('lists what waits and answers it by e-mail, once', async () => {
    const issued = expectOk(await shop.portal('POST', `/customers/${customerId}/client-link`));
    const path = new URL(issued.body.url).pathname;
    const job = expectOk(
      await shop.portal('POST', '/jobs/create', {
        body: {
          customer_id: customerId,
          title: 'Deep clean',
          scheduled_start: new Date(Date.now() + 4 * 86_400_000).toISOString(),
        },
      }),
    );
    const shown = await page(`${path}/visits/${job.body.id}`);
    const token = /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!;
    const sent = await page(`${path}/visits/${job.body.id}/reschedule`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: office.url },
      body: new URLSearchParams({ form_token: token, message: 'Away that week' }).toString(),
    });
    expectStatus(sent, 303);
    const waiting = await shop.portal('GET', '/client-actions');
    expectStatus(waiting, 200);
    expect(waiting.body.waiting).toHaveLength(1);
    const action = waiting.body.waiting[0];
    expect(action).toMatchObject({
      kind: 'visit.reschedule',
      customer_name: 'Maya Chen',
      subject_id: job.body.id,
    });

    // Another business's key sees none of it and cannot answer it.
    expect(okBody(await stranger.portal('GET', '/client-actions')).waiting).toHaveLength(0);
    expect(
      (await stranger.portal('POST', `/client-actions/${action!.id}/resolve`, { body: {} })).status,
    ).toBe(404);
    expect((await shop.portal('GET', '/client-actions', { key: stranger.portalKey })).status).toBe(403);

    const answered = await shop.portal('POST', `/client-actions/${action!.id}/resolve`, {
      body: { reply: 'How about Friday at 10?' },
    });
    expectStatus(answered, 200);
    expect(answered.body).toMatchObject({ status: 'handled', outcome: 'Answered: How about Friday at 10?' });
    expect((await shop.portal('POST', `/client-actions/${action!.id}/resolve`, { body: {} })).status).toBe(
      409,
    );
    const mail = await office.ctx.db
      .selectFrom('mail_messages')
      .select(['to_address', 'body'])
      .where('account_id', '=', shop.clientId)
      .where('to_address', '=', 'maya@example.com')
      .execute();
    expect(mail).toHaveLength(1);
    expect(mail[0]!.body).toContain('How about Friday at 10?');
    expect(okBody(await shop.portal('GET', '/client-actions')).waiting).toHaveLength(0);
    expect((await page(`${path}/visits/${job.body.id}`)).text).toContain('Answered: How about Friday at 10?');
  });
});
