import { describe, expect, it } from 'vitest';
import type { Config } from '../../shared/schemas/config';
import type { Customer } from '../../shared/schemas/customer';
import type { Invoice } from '../../shared/schemas/invoice';
import { screenshot } from './browser';
import { portalOk, type UiContext } from './context';

/**
 * The owner's side of the client hub (docs/client-hub.md, "For the owner"): its settings, a
 * customer's link copied and later revoked, and what the customer sent through it answered from
 * the dashboard's "Customers waiting".
 */
export function clientHubOwnerFlows(ui: UiContext) {
  describe("the client hub's owner screens", () => {
    it('sets the address, copies a link, answers payment notices from the dashboard, revokes the link', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/settings/client-hub`);
      const form = page.getByRole('form', { name: 'Client hub settings' });
      await form.getByLabel('Public address').fill('https://shop.example.com');
      await form.getByLabel('Serve the client hub from this computer').check();
      await form.getByLabel('How to pay').fill('e-Transfer to pay@sparkle.example');
      await form.getByLabel('Show the crew’s photos of a completed visit on the customer’s page').check();
      await form.getByRole('button', { name: 'Save client hub settings' }).click();
      await page.getByText('Client hub settings saved').waitFor();
      await screenshot(page, 'client-hub-settings');
      expect(await portalOk<Config>(ui, 'GET', '/config')).toMatchObject({
        client_hub_url: 'https://shop.example.com',
        serve_client_hub: true,
        payment_instructions: 'e-Transfer to pay@sparkle.example',
        crew_photos_in_client_hub: true,
        crew_on_my_way_email: false,
      });
      await page.reload();
      await form.getByLabel('E-mail the customer when the crew taps On my way').check();
      expect(
        await form
          .getByLabel('Show the crew’s photos of a completed visit on the customer’s page')
          .isChecked(),
      ).toBe(true);
      await form.getByRole('button', { name: 'Save client hub settings' }).click();
      await expect
        .poll(async () => (await portalOk<Config>(ui, 'GET', '/config')).crew_on_my_way_email)
        .toBe(true);
      expect((await portalOk<Config>(ui, 'GET', '/config')).crew_photos_in_client_hub).toBe(true);

      const maya = await portalOk<Customer>(ui, 'GET', '/customers/maya%40example.com');
      const bill = async (description: string) => {
        const made = await portalOk<Invoice>(ui, 'POST', '/invoices/create', {
          customer_id: maya.id,
          items: [{ description, quantity: 1, unit_price: 120 }],
        });
        await portalOk(ui, 'POST', `/invoices/${made.number}/mark-sent`);
        return made;
      };
      const windows = await bill('Window cleaning');
      const gutters = await bill('Gutter cleaning');

      await page.context().grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
      await page.goto(`${server.url}/#/customers/${maya.id}`);
      const card = page.locator('.client-hub-card');
      await card.getByRole('button', { name: 'Copy client hub link' }).click();
      const url = (await card.getByTestId('client-hub-link').textContent())!;
      expect(url).toMatch(/^https:\/\/shop\.example\.com\/c\/lnk_[0-9a-z]{26}\.[A-Za-z0-9_-]{43}$/);
      expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(url);
      await screenshot(page, 'client-hub-customer-link');

      // The customer, on the page the link opens (served by this install), says they paid both.
      const linkPath = new URL(url).pathname;
      const customerPage = (path: string, init: RequestInit = {}) =>
        fetch(`${server.url}${linkPath}${path}`, { redirect: 'manual', ...init });
      const notice = async (invoice: Invoice, note: string) => {
        const shown = await (await customerPage(`/invoices/${invoice.id}`)).text();
        expect(shown).toContain('e-Transfer to pay@sparkle.example');
        const formToken = /name="form_token" value="([^"]+)"/.exec(shown)![1]!;
        const posted = await customerPage(`/invoices/${invoice.id}/payment-notice`, {
          method: 'POST',
          headers: { 'content-type': 'application/x-www-form-urlencoded', origin: server.url },
          body: new URLSearchParams({ form_token: formToken, note }).toString(),
        });
        expect(posted.status).toBe(303);
      };
      await notice(windows, 'Sent by e-Transfer this morning');
      await notice(gutters, 'Cheque in the mail');

      await page.goto(`${server.url}/#/dashboard`);
      const waiting = page.locator('.customers-waiting');
      await waiting.getByText('Customers waiting (2)').waitFor();
      const items = waiting.getByRole('listitem', { name: 'Says they sent a payment, Maya Chen' });
      await expect.poll(() => items.count()).toBe(2);
      const eTransfer = items.filter({ hasText: 'Wrote: Sent by e-Transfer this morning' });
      const cheque = items.filter({ hasText: 'Wrote: Cheque in the mail' });
      await screenshot(page, 'client-hub-customers-waiting');

      await eTransfer.getByRole('button', { name: /^Reply/ }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Your reply').fill('Thanks Maya, I will record it when it arrives.');
      await screenshot(page, 'client-hub-reply');
      await dialog.getByRole('button', { name: 'Send reply' }).click();
      await waiting.getByText('Customers waiting (1)').waitFor();
      await cheque.getByRole('button', { name: /^Done/ }).click();
      await waiting.waitFor({ state: 'detached' });
      expect((await portalOk<{ waiting: unknown[] }>(ui, 'GET', '/client-actions')).waiting).toEqual([]);
      const replies = await server.ctx.db
        .selectFrom('mail_messages')
        .select(['to_address', 'body'])
        .where('account_id', '=', ui.shop.clientId)
        .where('subject', '=', 'Sparkle Cleaning: about your request')
        .execute();
      expect(replies).toHaveLength(1);
      expect(replies[0]).toMatchObject({ to_address: 'maya@example.com' });
      expect(replies[0]!.body).toContain('Thanks Maya, I will record it when it arrives.');

      await page.goto(`${server.url}/#/customers/${maya.id}`);
      await card.getByRole('button', { name: 'Revoke links' }).click();
      await screenshot(page, 'client-hub-revoke');
      await page.getByRole('dialog').getByRole('button', { name: 'Revoke links' }).click();
      await page.getByText('One link revoked').waitFor();
      expect((await customerPage('')).status).not.toBe(200);
    });
  });
}
