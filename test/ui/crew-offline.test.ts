import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { updateConfig } from '../../server/domain/accounts';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { expectOk } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';
import { screenshot } from './browser';
import { crewPhone, until } from './phone-page';
import { runBrowser } from './run-browser';

/**
 * Issue 22's done-means, end to end in real Chromium at phone size with touch: a crew member
 * joins from the owner's invitation on the hosted hub (PostgreSQL) while the owner's computer is
 * off, does a visit, goes without signal between Start and Complete (the browser's offline mode),
 * and the actions reach the hub once the phone is back; the owner's install, started again,
 * applies them once when it syncs (docs/crew.md, "The phone").
 */
const ADMIN_TOKEN = 'hub-admin-token-for-tests-0123456789';
const databaseUrl = startPostgresForSuite();
let pool: pg.Pool;
let hosted: HostedHub;
let browser: Browser;
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-crew-offline-'));
const started: TestServer[] = [];

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  hosted = await startHostedHub({ pool, port: 0, adminToken: ADMIN_TOKEN });
  browser = await runBrowser();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  for (const server of started) await server.stop();
  await hosted?.close();
  await pool?.end();
  rmSync(dataDir, { recursive: true, force: true });
});

it('a crew member joins, works a visit offline between Start and Complete, and the office applies it once', async () => {
  const office = await startTestServer({ dataDir });
  started.push(office);
  const shop = await office.createAccount({ business: 'Sparkle Windows' });
  await updateConfig(office.ctx, shop.clientId, { client_hub_url: hosted.url });
  await office.ctx.sync!.upload(shop.clientId, { url: hosted.url }, ADMIN_TOKEN, 'Office');
  const customer = expectOk(
    await shop.portal('POST', '/customers', {
      body: { name: 'Maya Chen', phone: '555-0100' },
    }),
  );
  const job = expectOk(
    await shop.portal('POST', '/jobs/create', {
      body: {
        customer_id: customer.body.id,
        title: 'Windows',
        // Earlier today is on today's list in any time zone (the list keeps a day back).
        scheduled_start: new Date(Date.now() - 10 * 60_000).toISOString(),
        assignees: ['Sam Rivera'],
        notes: '- Front\n- Back',
        address: '1 Main St, Toronto',
      },
    }),
  );
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  const team = expectOk(await shop.portal('GET', '/team'));
  const sam = team.body.data.find((m: { name: string }) => m.name === 'Sam Rivera');
  const invite = expectOk(await shop.portal('POST', `/team/${sam!.id}/invites`, { body: {} }));
  expect(invite.status, JSON.stringify(invite.body)).toBe(201);
  expect(invite.body.url.startsWith(`${hosted.url}/join/`)).toBe(true);
  await office.ctx.sync!.syncNow(shop.clientId);
  // The owner's computer is off from here until the end: the phone has only the hub.
  await office.close();
  started.pop();

  const { context, page, errors } = await crewPhone(browser);
  const jpeg = await madeJpeg(page);

  await page.goto(invite.body.url);
  await page.getByText('Join Sparkle Windows as Sam Rivera').waitFor();
  await screenshot(page, 'crew-offline-join');
  await page.getByRole('button', { name: 'Join as Sam Rivera' }).tap();
  await page.waitForURL(`${hosted.url}/crew/`);
  await page.getByText('Maya Chen').waitFor();
  await page.evaluate(() => navigator.serviceWorker.ready.then(() => undefined));
  await screenshot(page, 'crew-offline-today');

  const waiting = page.getByTestId('waiting');
  await page.getByRole('button', { name: 'Clock' }).tap();
  await page.getByRole('button', { name: 'Clock in' }).tap();
  await waiting.waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Today' }).tap();
  await page.getByText('Maya Chen').tap();
  await page.getByRole('button', { name: 'On my way' }).tap();
  await page.getByRole('button', { name: 'Start' }).tap();
  await until('On my way and Start on the hub', async () => (await hubActions()).length === 3);
  await waiting.waitFor({ state: 'detached' });
  // Sent and no longer waiting, the start still shows: the hub's list counts what the office has not applied.
  expect(await page.getByRole('button', { name: 'Start' }).count()).toBe(0);
  await screenshot(page, 'crew-offline-visit');

  await context.setOffline(true);
  await page.getByText('No signal').waitFor();
  await page.getByLabel('Front').check();
  await page.getByPlaceholder('Note for the office').fill('Ladder left by the gate');
  await page.locator('#photo').setInputFiles({ name: 'front.jpg', mimeType: 'image/jpeg', buffer: jpeg });
  await page.locator('.photos img').waitFor();
  await page.getByRole('button', { name: 'Complete visit' }).tap();
  await page.getByText('Completed').waitFor();
  await page.getByRole('button', { name: 'Clock' }).tap();
  await page.getByRole('button', { name: 'Clock out' }).tap();
  await expect.poll(() => waiting.textContent()).toBe('3 waiting to send: Photo, Complete, Clock out');
  await screenshot(page, 'crew-offline-waiting');
  expect(await hubActions()).toHaveLength(3);
  // Opened again with no signal, the app and the last list come from the service worker's cache,
  // whose own requests are offline too; the waiting actions come from IndexedDB.
  const worker = context.serviceWorkers()[0]!;
  expect(
    await worker.evaluate(() =>
      fetch('/crew/api/week').then(
        (r) => r.status,
        () => 'no network',
      ),
    ),
  ).toBe('no network');
  const reopened = await page.reload();
  expect(reopened?.fromServiceWorker()).toBe(true);
  await page.getByText('No signal: showing the last list.').waitFor();
  await page.getByText('Maya Chen').waitFor();
  // The list counts the Complete still waiting to be sent.
  await page.locator('.badge', { hasText: 'completed' }).waitFor();
  expect(await waiting.textContent()).toBe('3 waiting to send: Photo, Complete, Clock out');
  await screenshot(page, 'crew-offline-reopened');

  await context.setOffline(false);
  await waiting.waitFor({ state: 'detached' });
  await screenshot(page, 'crew-offline-sent');
  await page.getByRole('button', { name: 'Today' }).tap();
  await page.locator('.badge', { hasText: 'completed' }).waitFor();
  const kept = await hubActions();
  expect(kept.map((a) => a.kind).sort()).toEqual(['clock_in', 'clock_out', 'complete', 'on_my_way', 'start']);
  const photos = await hosted.hub.storage.readRows(shop.clientId, 'job_photos', 'account_id', [
    shop.clientId,
  ]);
  expect(photos).toHaveLength(1);
  await context.close();
  expect(errors).toEqual([]);

  const back = await startTestServer({ dataDir });
  started.push(back);
  const portal = <P extends string>(p: P) =>
    back.request('GET', `/api/portal/${shop.clientId}${p}`, { key: shop.portalKey });
  await back.ctx.sync!.syncNow(shop.clientId);
  await back.ctx.sync!.syncNow(shop.clientId);
  const done = await portal(`/jobs/${job.body.id}`);
  expect(done.body).toMatchObject({ status: 'completed' });
  const completed = await back.ctx.db
    .selectFrom('events')
    .select('id')
    .where('account_id', '=', shop.clientId)
    .where('type', '=', 'job.completed')
    .execute();
  expect(completed).toHaveLength(1);
  const onInstall = await back.ctx.db.selectFrom('job_photos').select(['id', 'job_id']).execute();
  expect(onInstall).toEqual([{ id: photos[0]!.id, job_id: job.body.id }]);
  const hours = expectOk(await portal(`/time-entries?member_id=${sam!.id}`));
  expect(hours.body.data).toHaveLength(1);
  expect(hours.body.data[0]!.ended_at).not.toBeNull();
  const statuses = await back.ctx.db.selectFrom('crew_actions').select('status').execute();
  expect(statuses.map((s) => s.status)).toEqual(Array(5).fill('applied'));

  function hubActions() {
    return hosted.hub.storage.readRows(shop.clientId, 'crew_actions', 'account_id', [shop.clientId]);
  }
}, 240_000);

/** A small real JPEG, drawn by the browser itself (the app decodes and downsizes it). */
async function madeJpeg(page: import('playwright-core').Page): Promise<Buffer> {
  const base64 = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 64;
    canvas.height = 48;
    const g = canvas.getContext('2d')!;
    g.fillStyle = 'teal';
    g.fillRect(0, 0, 64, 48);
    return canvas.toDataURL('image/jpeg', 0.9).split(',')[1]!;
  });
  return Buffer.from(base64, 'base64');
}
