import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';
import { decodedText, type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';
import { type Receiver, startReceiver } from '../outbound/receiver';
import { screenshot, signedInPage } from './browser';
import { expectDeliveredOnce } from './delivered-once';
import { phonePage, until } from './phone-page';
import { runBrowser } from './run-browser';

/**
 * Issue 21's "done means" (docs/client-hub.md): the owner sends a quote from the office, every one
 * of the owner's computers stops syncing, the customer approves it on a phone through the hosted
 * hub on PostgreSQL, the computers come back and show it accepted, `quote.accepted` reaches the
 * webhook receiver once, and the job is scheduled from it.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const stops: Array<() => Promise<unknown>> = [];
let browser: Browser;

function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(created);
  return created;
}

beforeAll(async () => {
  browser = await runBrowser();
});

afterAll(async () => {
  await browser?.close();
  for (const stop of stops.splice(0).reverse()) await stop();
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

const phone = () => phonePage(browser);

describe('the client hub on a hosted hub', () => {
  let office: TestServer;
  let van: TestServer;
  let hosted: HostedHub;
  let receiver: Receiver;
  let smtp: SmtpSink;

  it('a customer approves a quote while every owner computer is off; it applies once', async () => {
    const officePool = pool();
    await migratePgHub(officePool);
    office = await startTestServer({ hubStorage: pgHubStorage(officePool), localWebhooks: true });
    stops.push(() => office.stop());
    hosted = await startHostedHub({ pool: pool(), port: 0, webhooks: { pollMs: 100 } });
    stops.push(() => hosted.close());
    receiver = await startReceiver();
    stops.push(() => receiver.close());
    smtp = await startSmtpSink();
    stops.push(() => smtp.close());

    const account = await office.createAccount({ business: 'Sparkle Cleaning' });
    const configured = await account.portal('PUT', '/config', {
      body: {
        business_phone: '613-555-0100',
        business_email: 'hello@sparkle.example',
        client_hub_url: hosted.url,
        smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'hello@sparkle.example' },
      },
    });
    expectStatus(configured, 200);
    const endpoint = await account.portal('POST', '/webhooks', {
      body: { url: receiver.url, events: ['quote.accepted'] },
    });
    expectStatus(endpoint, 201);
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
    const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Van');
    van = await startTestServer();
    stops.push(() => van.stop());
    await van.ctx.sync!.join({ url: hosted.url }, pairing.pairing_code, 'Van');

    // The owner sends a quote from the office; its e-mail carries the customer's link.
    const customer = await account.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'maya@example.com' },
    });
    expectStatus(customer, 201);
    const made = expectOk(
      await account.portal('POST', '/quotes/create', {
        body: {
          customer_id: customer.body.id,
          items: [
            { description: 'Deep clean, 3-bedroom house', quantity: 1, unit_price: 280 },
            { description: 'Inside the oven', quantity: 2, unit_price: 35.5 },
          ],
          taxes: [{ name: 'HST', rate: 0.13 }],
        },
      }),
    );
    expect(made.body).toMatchObject({ object: 'quote' });
    const number: string = made.body.number;
    expect((await account.portal('POST', `/quotes/${number}/send`)).status).toBe(200);
    await until('the quote e-mail', () => smtp.messages.length === 1);
    const mail = decodedText(smtp.messages[0]!.raw);
    expect(mail).not.toContain('Reply to this e-mail to accept');
    const link = new RegExp(`${hosted.url}/c/lnk_[0-9a-z]{26}\\.[A-Za-z0-9_-]{43}`).exec(mail)?.[0];
    expect(link).toBeDefined();
    await until('the quote marked sent', async () => {
      return okBody(await account.portal('GET', `/quotes/${number}`)).status === 'sent';
    });
    await office.ctx.sync!.syncNow(account.clientId);

    // Every one of the owner's computers stops syncing.
    await office.ctx.sync!.stop();
    await van.ctx.sync!.stop();

    const page = await phone();
    await page.goto(link!);
    await page.getByRole('heading', { name: 'Sparkle Cleaning' }).waitFor();
    await page.getByText('Waiting for your answer').waitFor();
    await screenshot(page, 'client-hub-home');
    await page.getByRole('link', { name: new RegExp(`Quote ${number}`) }).click();
    // The total the PDF and the API show: (280 + 2 × 35.50) × 1.13.
    expect(made.body.total).toBe(396.63);
    await page.locator('tr.total').getByText('$396.63').waitFor();
    await screenshot(page, 'client-hub-quote');
    await page.getByLabel('Type your full name to approve').fill('Maya Chen');
    await screenshot(page, 'client-hub-quote-approving');
    await page.getByRole('button', { name: `Approve quote ${number}` }).click();
    await page.getByText('Sent to Sparkle Cleaning.').waitFor();
    await screenshot(page, 'client-hub-quote-sent');
    const held = await hosted.hub.storage.readRows(account.clientId, 'client_actions', 'kind', [
      'quote.approve',
    ]);
    expect(held).toMatchObject([{ status: 'pending', payload: JSON.stringify({ name: 'Maya Chen' }) }]);

    // The computers come back: the van first, then the office; each shows the quote accepted.
    await van.ctx.sync!.syncNow(account.clientId);
    await office.ctx.sync!.syncNow(account.clientId);
    await van.ctx.sync!.syncNow(account.clientId);
    for (const server of [office, van]) {
      const quote = await server.ctx.db
        .selectFrom('quotes')
        .select(['status', 'accepted_at'])
        .where('number', '=', number)
        .executeTakeFirstOrThrow();
      expect(quote.status).toBe('accepted');
      const actions = await server.ctx.db.selectFrom('client_actions').selectAll().execute();
      expect(actions).toMatchObject([{ status: 'applied', outcome: 'Approved by Maya Chen.' }]);
      expect(quote.accepted_at).toBe(actions[0]!.created_at);
      const events = await server.ctx.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'quote.accepted')
        .execute();
      expect(events).toHaveLength(1);
    }
    await until('quote.accepted delivered', () => receiver.received.length >= 1);
    await office.ctx.sync!.syncNow(account.clientId);
    await expectDeliveredOnce('quote.accepted', {
      hosted,
      receiver,
      accountId: account.clientId,
      installs: [office, van],
    });
    expect(receiver.received.map((r) => r.headers['x-service-event-type'])).toEqual(['quote.accepted']);

    await page.reload();
    await page.getByText('Approved by Maya Chen.').waitFor();
    await screenshot(page, 'client-hub-quote-approved');

    // The owner sees it and schedules the job from it.
    const owner = await signedInPage(browser, office, account.clientId);
    await owner.goto(`${office.url}/#/quotes/${encodeURIComponent(number)}`);
    await owner.getByText('Accepted', { exact: false }).first().waitFor();
    await screenshot(owner, 'client-hub-owner-quote-accepted');
    const converted = await account.portal('POST', `/quotes/${number}/convert`);
    expectStatus(converted, 200);
    const job = await office.ctx.db
      .selectFrom('jobs')
      .select('number')
      .where('id', '=', converted.body.job_id)
      .executeTakeFirstOrThrow();
    const scheduled = await account.portal('PATCH', `/jobs/${job.number}`, {
      body: { scheduled_start: '2030-01-15T14:00:00Z', scheduled_end: '2030-01-15T17:00:00Z' },
    });
    expectStatus(scheduled, 200);
    expect(scheduled.body.status).toBe('scheduled');
  }, 240_000);
});
