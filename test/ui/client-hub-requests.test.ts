import pg from 'pg';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { addDays, dateInZone } from '../../shared/time-zone';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { decodedText, type SmtpSink, startSmtpSink } from '../helpers/smtp-sink';
import { type Receiver, startReceiver } from '../outbound/receiver';
import { screenshot, signedInPage } from './browser';
import { expectDeliveredOnce } from './delivered-once';
import { phonePage, until } from './phone-page';
import { runBrowser } from './run-browser';

/**
 * Issue 21's "done means" for a booking request from the public page and a review after a visit
 * (docs/client-hub.md): every one of the owner's computers is off while the customer acts on a
 * phone through the hosted hub on PostgreSQL; the computers come back, apply it once, and the
 * event reaches the webhook receiver once. The quote's is test/ui/client-hub.test.ts.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const stops: Array<() => Promise<unknown>> = [];
let browser: Browser;
let office: TestServer;
let van: TestServer;
let hosted: HostedHub;
let receiver: Receiver;
let smtp: SmtpSink;
let account: TestAccount;

function pool(): pg.Pool {
  const created = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(created);
  return created;
}

/**
 * The customer's phone, one page for both flows: each opens its screen by its address, and the
 * client hub keeps nothing in the browser (no cookie, no storage) that one could leave the other.
 */
let page: Page;

const offline = async () => {
  await office.ctx.sync!.stop();
  await van.ctx.sync!.stop();
};

/** The computers come back: the van first, then the office, then the van again. */
const backOnline = async () => {
  await van.ctx.sync!.syncNow(account.clientId);
  await office.ctx.sync!.syncNow(account.clientId);
  await van.ctx.sync!.syncNow(account.clientId);
};

async function deliveredOnce(type: string) {
  await until(`${type} delivered`, () =>
    receiver.received.some((r) => r.headers['x-service-event-type'] === type),
  );
  await office.ctx.sync!.syncNow(account.clientId);
  await expectDeliveredOnce(type, {
    hosted,
    receiver,
    accountId: account.clientId,
    installs: [office, van],
  });
}

beforeAll(async () => {
  browser = await runBrowser();
  page = await phonePage(browser);
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

  account = await office.createAccount({ business: 'Sparkle Cleaning' });
  const configured = await account.portal('PUT', '/config', {
    body: {
      business_phone: '613-555-0100',
      business_email: 'hello@sparkle.example',
      client_hub_url: hosted.url,
      ask_for_reviews: true,
      smtp: { host: '127.0.0.1', port: smtp.port, secure: false, from: 'hello@sparkle.example' },
    },
  });
  expectStatus(configured, 200);
  const bookingPage = await account.portal('PUT', '/booking-page', {
    body: {
      enabled: true,
      intro: 'Book a cleaning online: we confirm by e-mail within a day.',
      services: [
        { name: 'Deep clean', duration_minutes: 180, price: 280 },
        { name: 'Window washing', duration_minutes: 90, price: null },
      ],
      hours: [1, 2, 3, 4, 5, 6, 7].map((weekday) => ({ weekday, from: '08:00', to: '17:00' })),
    },
  });
  expectStatus(bookingPage, 200);
  const endpoint = await account.portal('POST', '/webhooks', {
    body: { url: receiver.url, events: ['booking.created', 'review.received'] },
  });
  expectStatus(endpoint, 201);
  expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
  const pairing = await hosted.hub.createPairing(account.clientId, hosted.url, 'Van');
  van = await startTestServer();
  stops.push(() => van.stop());
  await van.ctx.sync!.join({ url: hosted.url }, pairing.pairing_code, 'Van');
}, 240_000);

afterAll(async () => {
  await browser?.close();
  for (const stop of stops.splice(0).reverse()) await stop();
  await Promise.all(pools.splice(0).map((p) => p.end()));
});

describe('the client hub on a hosted hub, every owner computer off', () => {
  it('a visitor books from the public page; it applies once and the owner schedules the job', async () => {
    await office.ctx.sync!.syncNow(account.clientId);
    await offline();

    const day = addDays(dateInZone(new Date(), 'America/Toronto'), 2);
    await page.goto(`${hosted.url}/book/${account.clientId}`);
    await page.getByRole('heading', { name: 'Sparkle Cleaning' }).waitFor();
    await page.getByText('Deep clean').waitFor();
    await screenshot(page, 'client-hub-book');
    await page.getByLabel('Preferred day').fill(day);
    await page.locator('#time1').selectOption('10:00');
    await page.getByLabel('Name').fill('Robin Park');
    await page.getByLabel('E-mail').fill('robin@example.com');
    await page.getByLabel('Phone (optional)').fill('613-555-0199');
    await page.getByLabel('Address of the work (optional)').fill('4 Elm St, Ottawa');
    await page.getByLabel('Notes (optional)').fill('Two dogs, friendly.');
    await screenshot(page, 'client-hub-book-filled');
    await page.getByRole('button', { name: 'Send my request' }).click();
    await page.getByText('has your request').waitFor();
    await screenshot(page, 'client-hub-book-sent');
    const held = await hosted.hub.storage.readRows(account.clientId, 'client_actions', 'kind', [
      'booking.page',
    ]);
    expect(held).toMatchObject([{ status: 'pending' }]);

    await backOnline();
    for (const server of [office, van]) {
      const requests = await server.ctx.db.selectFrom('booking_requests').selectAll().execute();
      expect(requests).toMatchObject([{ origin: 'booking_page' }]);
      const actions = await server.ctx.db
        .selectFrom('client_actions')
        .selectAll()
        .where('kind', '=', 'booking.page')
        .execute();
      expect(actions).toMatchObject([{ status: 'applied' }]);
      const events = await server.ctx.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'booking.created')
        .execute();
      expect(events).toHaveLength(1);
    }
    await deliveredOnce('booking.created');

    // The owner sees it under Bookings and schedules the job from it.
    const owner = await signedInPage(browser, office, account.clientId);
    await owner.goto(`${office.url}/#/bookings`);
    const card = owner.locator('.booking-requests');
    await card.getByRole('heading', { name: 'Requests waiting (1)' }).waitFor();
    await screenshot(owner, 'client-hub-owner-booking-request');
    await card.getByRole('button', { name: 'Schedule a job: Deep clean, Robin Park' }).click();
    await owner.getByRole('dialog').getByRole('button', { name: 'Schedule job' }).click();
    await owner.getByText('Job scheduled: Deep clean').waitFor();
    const request = await office.ctx.db.selectFrom('booking_requests').selectAll().executeTakeFirstOrThrow();
    expect(request.outcome).toBe('converted_to_job');
  }, 240_000);

  it('a customer leaves 5 stars after a visit; review.received once', async () => {
    const customer = expectOk(
      await account.portal('POST', '/customers', {
        body: { name: 'Pat Green', email: 'pat@example.com' },
      }),
    );
    const job = expectOk(
      await account.portal('POST', '/jobs/create', {
        body: {
          customer_id: customer.body.id,
          title: 'Deep clean',
          scheduled_start: new Date().toISOString(),
        },
      }),
    );
    expect((await account.portal('POST', `/jobs/${job.body.job_number}/complete`)).status).toBe(200);
    await until('the review request e-mail', () =>
      smtp.messages.some((m) => decodedText(m.raw).includes('How did we do?')),
    );
    const mail = decodedText(smtp.messages.find((m) => decodedText(m.raw).includes('How did we do?'))!.raw);
    const link = new RegExp(
      `${hosted.url}/c/lnk_[0-9a-z]{26}\\.[A-Za-z0-9_-]{43}/reviews/rrq_[0-9a-z]{26}`,
    ).exec(mail)?.[0];
    expect(link).toBeDefined();
    await office.ctx.sync!.syncNow(account.clientId);
    await offline();

    await page.goto(link!);
    await page.getByRole('heading', { name: 'Deep clean' }).waitFor();
    await screenshot(page, 'client-hub-review');
    await page.locator('label[for="star-5"]').click();
    await page.getByLabel('Tell us more (optional)').fill('Spotless. Thank you!');
    await screenshot(page, 'client-hub-review-filled');
    await page.getByRole('button', { name: 'Send my review' }).click();
    await page.getByText('Thank you for your review.').waitFor();
    await screenshot(page, 'client-hub-review-sent');
    // The customer's page links to the request work form (its posts are test/api/client-hub-requests.test.ts).
    await page.goto(link!.split('/reviews/')[0]!);
    await page.getByRole('link', { name: /Request work/ }).click();
    await page.getByLabel('Preferred day').waitFor();
    await screenshot(page, 'client-hub-request-work');

    await backOnline();
    for (const server of [office, van]) {
      const reviews = await server.ctx.db.selectFrom('reviews').selectAll().execute();
      expect(reviews).toMatchObject([{ rating: 5, comment: 'Spotless. Thank you!', source: 'client_hub' }]);
      const events = await server.ctx.db
        .selectFrom('events')
        .select('id')
        .where('type', '=', 'review.received')
        .execute();
      expect(events).toHaveLength(1);
    }
    await deliveredOnce('review.received');
  }, 240_000);
});
