import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { expectStatus } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';
import { type Receiver, startReceiver } from '../outbound/receiver';
import { screenshot, signedInPage } from './browser';
import { runBrowser } from './run-browser';

/**
 * Settings > Webhooks on an install whose business syncs to a hosted hub: the owner lets the hub
 * deliver a new endpoint, and the hub (not this computer) sends the business's events to it.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
let office: TestServer;
let hosted: HostedHub;
let receiver: Receiver;
let browser: Browser;

beforeAll(async () => {
  const officePool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  const hubPool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(officePool, hubPool);
  await migratePgHub(officePool);
  office = await startTestServer({ hubStorage: pgHubStorage(officePool), localWebhooks: true });
  hosted = await startHostedHub({ pool: hubPool, port: 0, webhooks: { pollMs: 100 } });
  receiver = await startReceiver();
  browser = await runBrowser();
});

afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await hosted?.close();
  await office?.stop();
  await Promise.all(pools.map((p) => p.end()));
});

describe('Settings > Webhooks with a hosted hub', () => {
  it('adds an endpoint the hub delivers, and the hub sends the events', async () => {
    const account = await office.createAccount({ business: 'Sparkle Cleaning' });
    expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
    const page = await signedInPage(browser, office, account.clientId);
    await page.goto(`${office.url}/#/settings/webhooks`);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByLabel('URL').fill(receiver.url);
    await page.getByLabel(/Let the hosted sync hub deliver it/).check();
    await screenshot(page, 'settings-webhook-hub-choice');
    await page.getByRole('dialog').getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('The hosted sync hub delivers this endpoint').waitFor();
    await screenshot(page, 'settings-webhook-hub-delivered');

    const made = await account.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'maya@example.com' },
    });
    expectStatus(made, 201);
    await office.ctx.sync!.syncNow(account.clientId);
    await expect
      .poll(() => receiver.received.map((r) => r.headers['x-service-event-type']), { timeout: 20_000 })
      .toContain('customer.created');
  }, 120_000);
});
