import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import type { MemberRole } from '../../shared/schemas/team';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { screenshot } from './browser';
import { runBrowser } from './run-browser';

let browser: Browser;
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Sparkle Cleaning' });
  browser = await runBrowser();
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** A page signed in as a new team member of this role, on their own session cookie. */
async function memberPage(name: string, role: MemberRole): Promise<Page> {
  const added = expectOk(await shop.portal('POST', '/team', { body: { name } }));
  await server.ctx.db.updateTable('team_members').set({ role }).where('id', '=', added.body.id).execute();
  const { token } = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, shop.clientId, added.body.id, 'test'));
  const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
  await context.addCookies([
    { name: server.app.sessionCookie, value: token, url: server.url, httpOnly: true, sameSite: 'Strict' },
  ]);
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  return page;
}

describe('the UI follows the role', () => {
  it("offers the office everything but the owner's settings", async () => {
    const page = await memberPage('Olive Office', 'office');
    await page.goto(`${server.url}/#/settings/business`);
    const tabs = page.getByRole('navigation', { name: 'Settings' });
    await tabs.getByRole('link', { name: 'Business' }).waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Invoices' }).waitFor();
    const offered = await tabs.getByRole('link').allTextContents();
    expect(offered).toContain('Reminders');
    for (const owners of ['Integrations', 'Webhooks', 'Import', 'Export', 'Sync', 'Backups']) {
      expect(offered).not.toContain(owners);
    }
    await screenshot(page, 'roles-office-settings');
    await page.goto(`${server.url}/#/settings/backups`);
    await page.getByText("The owner's settings").waitFor();
    await page.context().close();
  }, 120_000);

  it('shows the crew their own schedule and the way to their phone, nothing else', async () => {
    const page = await memberPage('Cal Crew', 'crew');
    const start = new Date(Date.now() + 3_600_000).toISOString();
    for (const [title, who] of [
      ['Deep clean', 'Cal Crew'],
      ['Windows', 'Someone Else'],
    ] as const) {
      const job = await shop.portal('POST', '/jobs/create', {
        body: {
          customer_email: 'ann@example.com',
          customer_name: 'Ann Lee',
          title,
          scheduled_start: start,
          assignees: [who],
        },
      });
      expectStatus(job, 201);
    }
    await page.goto(`${server.url}/`);
    await page.getByRole('heading', { name: 'My schedule' }).waitFor();
    await page.getByText('Deep clean').waitFor();
    expect(await page.getByText('Windows').count()).toBe(0);
    const links = await page.getByRole('navigation', { name: 'Main' }).getByRole('link').allTextContents();
    expect(links.map((text) => text.replace(/^\W+/, '').trim())).toEqual(['My schedule']);
    await screenshot(page, 'roles-crew-my-schedule');
    await page.goto(`${server.url}/#/invoices`);
    await page.getByText('Not for your role').waitFor();
    await page.context().close();
  }, 120_000);
});
