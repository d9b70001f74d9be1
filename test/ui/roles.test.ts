import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import { createSignInToken } from '../../server/domain/sessions';
import type { MemberRole } from '../../shared/schemas/team';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { laterToday } from '../helpers/later-today';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { DESKTOP, STEP_TIMEOUT_MS, screenshot } from './browser';
import { runBrowser } from './run-browser';

let browser: Browser;
/**
 * The one page every flow here signs in on, one after another: each sign-in replaces its session
 * cookie, and the renderer's files stay cached from one flow to the next.
 */
let page: Page;
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Sparkle Cleaning' });
  browser = await runBrowser();
  const context = await browser.newContext({ viewport: DESKTOP });
  page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
});
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

/** The page, signed in as a new team member of this role on their own session cookie. */
async function memberPage(name: string, role: MemberRole): Promise<Page> {
  const added = expectOk(await shop.portal('POST', '/team', { body: { name } }));
  await server.ctx.db.updateTable('team_members').set({ role }).where('id', '=', added.body.id).execute();
  const { token } = await server.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, server.ctx.clock, shop.clientId, added.body.id, 'test'));
  await page
    .context()
    .addCookies([
      { name: server.app.sessionCookie, value: token, url: server.url, httpOnly: true, sameSite: 'Strict' },
    ]);
  // The app reads the session once, when it loads: from a blank page the flow's first address loads
  // it again, where from the last flow's screen it would only change the hash.
  await page.goto('about:blank');
  return page;
}

describe('the UI follows the role', () => {
  it("offers the office everything but the owner's settings", async () => {
    await memberPage('Olive Office', 'office');
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
  }, 120_000);

  it('shows the crew their own schedule and the way to their phone, nothing else', async () => {
    await memberPage('Cal Crew', 'crew');
    const start = laterToday().toISOString();
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
  }, 120_000);

  it("offers the office none of the owner's actions inside screens; the owner has them", async () => {
    const office = await memberPage('Otto Office', 'office');
    await office.goto(`${server.url}/#/team`);
    const members = office.getByRole('table', { name: 'Team members' });
    await members.getByRole('row', { name: /Otto Office/ }).waitFor();
    await office.getByRole('button', { name: 'Edit Otto Office' }).waitFor();
    expect(await office.getByRole('button', { name: /^Invite / }).count()).toBe(0);
    expect(await office.getByRole('button', { name: /sign-ins$/ }).count()).toBe(0);
    await office.getByRole('button', { name: 'Edit Otto Office' }).click();
    const edit = office.getByRole('dialog');
    expect(await edit.getByLabel('Role').isDisabled()).toBe(true);
    await edit.getByText('Only an owner changes roles').waitFor();
    await screenshot(office, 'roles-office-team');

    const owner = office;
    await owner.goto(`${server.url}/sign-in?token=${await createSignInToken(server.ctx, shop.clientId)}`);
    await owner.goto(`${server.url}/#/team`);
    await owner.getByRole('button', { name: 'Invite Otto Office' }).waitFor();
    await owner.getByRole('button', { name: "Otto Office's sign-ins" }).waitFor();
    await owner.getByRole('button', { name: 'Edit Otto Office' }).click();
    expect(await owner.getByRole('dialog').getByLabel('Role').isDisabled()).toBe(false);
    await owner.keyboard.press('Escape');
    await owner.goto(`${server.url}/#/settings/business`);
    const nav = owner.getByRole('navigation', { name: 'Settings' });
    await nav.getByRole('link', { name: 'Backups' }).waitFor();
    const tabs = await nav.getByRole('link').allTextContents();
    expect(tabs).toEqual(expect.arrayContaining(['Integrations', 'Import', 'Export', 'Sync', 'Backups']));
    // The Members table fits common laptop widths without scrolling sideways.
    await owner.goto(`${server.url}/#/team`);
    await owner.getByRole('button', { name: 'Invite Otto Office' }).waitFor();
    for (const width of [1280, 1024]) {
      await owner.setViewportSize({ width, height: 800 });
      const wrap = owner.locator('.table-wrap', { has: owner.getByRole('table', { name: 'Team members' }) });
      const sizes = await wrap.evaluate((el) => [el.scrollWidth, el.clientWidth]);
      expect(sizes[0], `at ${width}px`).toBeLessThanOrEqual(sizes[1]!);
      await screenshot(owner, `team-members-${width}`);
    }
    await owner.setViewportSize(DESKTOP);
  }, 120_000);
});
