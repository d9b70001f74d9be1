import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { setOnline } from '../../server/context';
import { openMemberSession } from '../../server/domain/member-sessions';
import type { TeamMember } from '../../shared/schemas/team';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { DESKTOP, screenshot, screenshotOf, signedInPage } from './browser';
import { runBrowser } from './run-browser';
import { signInHere } from './sign-in-here';

/**
 * Settings > Sync with real servers: a hub and a second install, each on port 0 with its own
 * folder. The owner pairs the second install from the hub's UI and joins from the other's UI,
 * reading the code off the page as a person would.
 */

let hub: TestServer;
let other: TestServer;
let browser: Browser;
let shop: TestAccount;
let hubPage: Page;
let devicePage: Page;
let invoiceId: string;
let pairingCode: string;
/** The business the second install held before it joined; it stays standalone. */
let trialClientId: string;

const JOIN_MS = 60_000;

beforeAll(async () => {
  [hub, other] = await Promise.all([startTestServer(), startTestServer()]);
  shop = await hub.createAccount({ business: 'Sparkle Cleaning' });
  const invoice = await shop.portal('POST', '/invoices/create', {
    body: {
      customer_email: 'maya@example.com',
      customer_name: 'Maya Chen',
      items: [{ description: 'Move-out deep clean', quantity: 1, unit_price: 240 }],
    },
  });
  expectStatus(invoice, 201);
  invoiceId = invoice.body.id;
  const local = await other.createAccount({ business: 'Laptop Trial' });
  trialClientId = local.clientId;
  browser = await runBrowser();
  hubPage = await signedInPage(browser, hub, shop.clientId);
  // The second install's page beside the hub's, in its browser context: each data folder names its
  // own session cookie (sessionCookieName) and storage is per port, so neither sees the other's.
  devicePage = await signedInPage(hubPage.context(), other, trialClientId);
});

afterAll(async () => {
  await browser?.close();
  await Promise.all([hub?.stop(), other?.stop()]);
});

const indicator = (page: Page) => page.getByTestId('sync-indicator');

describe('Settings > Sync', () => {
  it('says a computer that does not sync is not syncing, with no indicator in the shell', async () => {
    await hubPage.goto(`${hub.url}/#/settings/sync`);
    await hubPage.getByText('This computer is not syncing yet').waitFor();
    await hubPage.getByRole('heading', { name: 'Join a business on another computer' }).waitFor();
    expect(await indicator(hubPage).count()).toBe(0);
    await screenshot(hubPage, 'sync-settings-standalone');
  });

  it('pairs a device: the first code makes this computer the hub', async () => {
    await hubPage.getByLabel('Device name (optional)').fill('Van laptop');
    await hubPage.getByRole('button', { name: 'Create pairing code' }).click();
    const code = hubPage.getByTestId('pairing-code');
    await code.waitFor();
    pairingCode = (await code.textContent())!.trim();
    expect(pairingCode).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);
    expect(await hubPage.getByTestId('pairing-link').textContent()).toBe(
      `${hub.url}/sync/join?code=${pairingCode}`,
    );
    expect(await hubPage.locator('.sync-pairing').textContent()).toContain(
      `npm run --silent cli -- sync join --hub ${hub.url} --code ${pairingCode}`,
    );
    // Focus moves to the new code so a screen reader reads it out.
    expect(await hubPage.evaluate(() => document.activeElement?.id)).toBe('sync-pairing-heading');
    await hubPage.getByText('This computer is the hub of Sparkle Cleaning').waitFor();
    // Joining is offered only to a computer that does not sync yet.
    await hubPage
      .getByRole('heading', { name: 'Join a business on another computer' })
      .waitFor({ state: 'detached' });
  });

  it(
    'joins the hub from the other computer and lands on the joined business, synced',
    async () => {
      await devicePage.goto(`${other.url}/#/settings/sync`);
      const form = devicePage.getByRole('form', { name: 'Join a business' });
      await form.getByLabel('Pairing link or hub address').fill(hub.url);
      await form.getByLabel('Pairing code').fill('WRONG-CODE1');
      await form.getByRole('button', { name: 'Join business' }).click();
      await form
        .getByRole('alert')
        .getByText(/pairing code is wrong, expired or already used/)
        .waitFor();

      await form.getByLabel('Pairing code').fill(pairingCode);
      await form.getByLabel('Name for this computer').fill('Van laptop');
      await form.getByRole('button', { name: 'Join business' }).click();
      await devicePage.locator('.brand small', { hasText: 'Sparkle Cleaning' }).waitFor({ timeout: JOIN_MS });
      await indicator(devicePage)
        .getByText(/^Synced /)
        .waitFor();

      await devicePage.goto(`${other.url}/#/invoices`);
      await devicePage.getByText('Maya Chen').first().waitFor();

      await devicePage.goto(`${other.url}/#/settings/sync`);
      await devicePage.getByText(`Synced with the hub at ${hub.url}`).waitFor();
      expect(await devicePage.getByRole('heading', { name: 'Add a device' }).count()).toBe(0);
      await devicePage.getByRole('button', { name: 'Sync now' }).click();
      await devicePage.locator('.toast', { hasText: 'Synced' }).waitFor();
      expect(await devicePage.locator('.details').textContent()).toContain('Changes waitingNone, all sent');
      await screenshot(devicePage, 'sync-settings-device');
      await screenshotOf(indicator(devicePage), 'sync-indicator');
    },
    JOIN_MS + 30_000,
  );

  it('lists the joined device on the hub, and the hub shows as synced', async () => {
    await hubPage.reload();
    const row = hubPage.getByRole('row', { name: /Van laptop/ });
    await row.waitFor();
    expect(await row.textContent()).toContain('Syncing');
    expect(
      await hubPage
        .getByRole('row', { name: /This computer/ })
        .getByRole('button')
        .count(),
    ).toBe(0);
    await indicator(hubPage)
      .getByText(/^Synced /)
      .waitFor();
    await screenshot(hubPage, 'sync-settings-hub');
  });

  it('lists a conflict with a link to its record, and marks it dealt with', async () => {
    await hub.ctx.db
      .insertInto('decisions')
      .values({
        status: 'open',
        id: `overpaid_invoice:${invoiceId}`,
        account_id: shop.clientId,
        kind: 'overpaid_invoice',
        record_type: 'invoice',
        record_id: invoiceId,
        message: 'Invoice INV-0001 was paid twice, on two devices. Refund the customer or keep the credit.',
        detected_at: new Date().toISOString().replace(/\.\d{3}Z$/, 'Z'),
        resolved_at: null,
      })
      .execute();
    await hubPage.reload();
    const card = hubPage.locator('.card', {
      has: hubPage.getByRole('heading', { name: 'Needs your decision' }),
    });
    await card.getByText('was paid twice').waitFor();
    await indicator(hubPage).getByText('1 conflict to resolve').waitFor();
    expect(await card.getByRole('link', { name: 'Open the invoice' }).getAttribute('href')).toBe(
      `#/invoices/${invoiceId}`,
    );
    await screenshot(hubPage, 'sync-settings-conflict');
    await card.getByRole('link', { name: 'Open the invoice' }).click();
    await hubPage.getByRole('heading', { name: /Invoice INV-0001/ }).waitFor();
    await hubPage.goBack();
    await card.getByRole('button', { name: 'Mark as dealt with' }).click();
    await card.waitFor({ state: 'detached' });
    await indicator(hubPage)
      .getByText(/^Synced /)
      .waitFor();
    const open = expectOk(await shop.portal('GET', '/sync/conflicts'));
    expect(open.body.data).toEqual([]);
  });

  it("shows on the customer's page that a sync replaced an edit made here, and puts it back", async () => {
    const maya = await hub.ctx.db
      .selectFrom('customers')
      .select('id')
      .where('email', '=', 'maya@example.com')
      .executeTakeFirstOrThrow();
    const edited = await shop.portal('PATCH', '/customers/maya@example.com', {
      body: { phone: '+1 416 555 1111' },
    });
    expectStatus(edited, 200);
    await hub.ctx.sync!.syncNow(shop.clientId);
    // Dana, on the van, later types another number; her change reaches the hub and wins by its clock.
    const dana = await shop.portal<TeamMember>('POST', '/team', { body: { name: 'Dana Office' } });
    await hub.ctx.db
      .updateTable('team_members')
      .set({ role: 'office' })
      .where('id', '=', dana.body.id)
      .execute();
    await hub.ctx.sync!.syncNow(shop.clientId);
    await other.ctx.sync!.syncNow(shop.clientId);
    const { token } = await other.ctx.db
      .transaction()
      .execute((tx) => openMemberSession(tx, other.ctx.clock, shop.clientId, dana.body.id, 'test'));
    const typed = await fetch(`${other.url}/api/portal/${shop.clientId}/customers/${maya.id}`, {
      method: 'PATCH',
      headers: {
        cookie: `${other.app.sessionCookie}=${encodeURIComponent(token)}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ phone: '+1 416 555 2222' }),
    });
    expect(typed.status).toBe(200);
    await other.ctx.sync!.syncNow(shop.clientId);
    await hub.ctx.sync!.syncNow(shop.clientId);

    await hubPage.goto(`${hub.url}/#/customers/${maya.id}`);
    const card = hubPage.locator('.card', { has: hubPage.getByRole('heading', { name: 'History' }) });
    const replaced = card.locator('.history-entry.replaced');
    await replaced.getByText('Replaced', { exact: true }).waitFor();
    expect(await replaced.textContent()).toContain('+1 416 555 1111 → +1 416 555 2222');
    expect(await replaced.textContent()).toContain('By Dana Office on Van laptop');
    await screenshot(hubPage, 'record-history-replaced');

    await replaced.getByRole('button', { name: 'Put back +1 416 555 1111' }).click();
    await hubPage.locator('.page-header', { hasText: '+1 416 555 1111' }).waitFor();
    await replaced.getByText(/put back/).waitFor();
    expect(await replaced.getByRole('button').count()).toBe(0);
    await screenshot(hubPage, 'record-history-put-back');

    await hub.ctx.sync!.syncNow(shop.clientId);
    await other.ctx.sync!.syncNow(shop.clientId);
    const onVan = await other.ctx.db
      .selectFrom('customers')
      .select('phone')
      .where('id', '=', maya.id)
      .executeTakeFirstOrThrow();
    expect(onVan.phone).toBe('+1 416 555 1111');
    // The steps after this one continue from Settings > Sync.
    await hubPage.goto(`${hub.url}/#/settings/sync`);
    await hubPage.getByRole('row', { name: /Van laptop/ }).waitFor();
  });

  it('fits a phone screen', async () => {
    // The hub's page at a phone's size and back: a page of its own would load the renderer again.
    await hubPage.setViewportSize({ width: 390, height: 844 });
    try {
      await hubPage.goto(`${hub.url}/#/settings/sync`);
      await hubPage.getByRole('row', { name: /Van laptop/ }).waitFor();
      await hubPage.getByRole('button', { name: 'Create pairing code' }).click();
      await hubPage.getByTestId('pairing-code').waitFor();
      const overflow = await hubPage.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      await screenshot(hubPage, 'sync-settings-phone');
      expect(overflow).toBeLessThanOrEqual(0);
    } finally {
      await hubPage.setViewportSize(DESKTOP);
      // The later steps start from Settings > Sync without this code on it: the dashboard in
      // between, drawn before the way back, so that the screen mounts again.
      await hubPage.goto(`${hub.url}/#/`);
      await hubPage.getByTestId('dashboard-loaded').waitFor();
      await hubPage.goto(`${hub.url}/#/settings/sync`);
      await hubPage.getByRole('row', { name: /Van laptop/ }).waitFor();
    }
  });

  it('says how many changes wait while offline, and sends them once back online', async () => {
    setOnline(other.ctx, false);
    const created = await devicePage.request.post(`${other.url}/api/portal/${shop.clientId}/customers`, {
      data: { name: 'Oliver Grant', email: 'oliver@example.com' },
    });
    expect(created.status()).toBe(201);
    await devicePage.reload();
    await indicator(devicePage)
      .getByText(/^Offline — \d+ changes? waiting$/)
      .waitFor();
    await screenshotOf(indicator(devicePage), 'sync-indicator-offline');

    setOnline(other.ctx, true);
    await expect
      .poll(async () => (await shop.portal('GET', '/customers/oliver%40example.com')).status, {
        timeout: 10_000,
      })
      .toBe(200);
    await devicePage.reload();
    await indicator(devicePage)
      .getByText(/^Synced /)
      .waitFor();
  });

  it('removes a device after a confirmation that Esc dismisses; the device then reports a problem', async () => {
    const row = hubPage.getByRole('row', { name: /Van laptop/ });
    await row.getByRole('button', { name: 'Remove' }).click();
    const dialog = hubPage.getByRole('dialog');
    await dialog.getByText('It stops syncing at once').waitFor();
    await hubPage.keyboard.press('Escape');
    await dialog.waitFor({ state: 'hidden' });
    await row.getByRole('button', { name: 'Remove' }).click();
    await dialog.getByRole('button', { name: 'Remove device' }).click();
    await row.getByText('Removed').waitFor();
    expect(await row.getByRole('button').count()).toBe(0);

    await devicePage.getByRole('button', { name: 'Sync now' }).click();
    await devicePage.locator('.toast-error').waitFor();
    await indicator(devicePage).getByText('Sync problem — see Settings').waitFor();
    await devicePage.getByText('The last sync did not go through.').waitFor();
    await screenshot(devicePage, 'sync-settings-device-problem');
  });

  it('takes the code from a pasted pairing link, and shows why a join is refused', async () => {
    await hubPage.goto(`${hub.url}/#/settings/sync`);
    await hubPage.getByRole('button', { name: 'Create pairing code' }).click();
    const link = (await hubPage.getByTestId('pairing-link').textContent())!;

    // The other install still holds its own business, which does not sync: it may join, but not
    // the business it already holds.
    // The last step: the device page signs in to the trial business, which ends its session.
    await signInHere(devicePage, other, trialClientId);
    await devicePage.goto(`${other.url}/#/settings/sync`);
    const form = devicePage.getByRole('form', { name: 'Join a business' });
    await form.getByLabel('Pairing link or hub address').fill(link);
    expect(await form.getByLabel('Pairing code').isDisabled()).toBe(true);
    await form.getByRole('button', { name: 'Join business' }).click();
    await form.getByRole('alert').getByText('This computer already has this business').waitFor();
  });
});
