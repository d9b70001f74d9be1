import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import { expectOk } from '../helpers/api-responses';
import { laterToday } from '../helpers/later-today';
import { serversStoppedAfterEach } from '../helpers/server';
import { phonePage, until } from '../ui/phone-page';
import { screenshot } from './browser';
import { runBrowser } from './run-browser';

const started = serversStoppedAfterEach();
let browser: Browser;

beforeAll(async () => {
  browser = await runBrowser();
});

afterAll(async () => {
  await browser?.close();
});

/**
 * The crew's phone in real Chromium at phone size (docs/crew.md, "The phone"), on an install serving
 * its client hub: the member's list, a visit, an action queued and sent, the clock screen. The
 * offline flow on the hosted hub is test/ui/crew-offline.test.ts; the API tests cover the rest.
 */
it("shows a member's visits, sends a queued action, and every screen renders", async () => {
  const server = await started();
  const account = await server.createAccount({ business: 'Sparkle' });
  await account.portal('PUT', '/config', { body: { client_hub_url: server.url, serve_client_hub: true } });
  const c = expectOk(
    await account.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'm@example.com', phone: '555-0100' },
    }),
  );
  await account.portal('POST', '/jobs/create', {
    body: {
      customer_id: c.body.id,
      title: 'Windows',
      scheduled_start: laterToday().toISOString(),
      assignees: ['Sam'],
      notes: '- Front\n- Back',
      address: '1 Main St, Toronto',
    },
  });
  const sam = await server.ctx.db
    .selectFrom('team_members')
    .select('id')
    .where('name', '=', 'Sam')
    .executeTakeFirstOrThrow();
  const s = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, account.clientId, sam.id, 'x'));
  const page = await phonePage(browser);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  const u = new URL(server.url);
  await page
    .context()
    .addCookies([{ name: server.app.sessionCookie, value: s.token, domain: u.hostname, path: '/' }]);
  await page.goto(`${server.url}/crew/`);
  await page.getByText('Maya Chen').waitFor();
  await screenshot(page, 'crew-today');
  await page.getByRole('button', { name: 'This week' }).click();
  await page.getByRole('button', { name: 'This week', pressed: true }).waitFor();
  await screenshot(page, 'crew-week');
  await page.getByText('Maya Chen').click();
  await page.getByText('On my way').click();
  await page.getByText('Complete visit').waitFor();
  await screenshot(page, 'crew-visit');
  await until('the action applied', async () => {
    const row = await server.ctx.db.selectFrom('crew_actions').select('status').executeTakeFirst();
    return row?.status === 'applied';
  });
  await page.getByTestId('waiting').waitFor({ state: 'detached' });
  await page.getByRole('button', { name: 'Clock' }).click();
  await page.getByRole('heading', { name: 'Hours' }).waitFor();
  await screenshot(page, 'crew-clock');
  await page.getByRole('button', { name: 'You' }).click();
  await page.getByRole('button', { name: 'Sign out' }).waitFor();
  await screenshot(page, 'crew-you');
  await page.context().close();
  expect(errors).toEqual([]);
}, 120_000);
