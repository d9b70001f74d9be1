import { describe, expect, it } from 'vitest';
import type { Invoice } from '../../shared/schemas/invoice';
import type { OutboxMessage } from '../../shared/schemas/mail-outbox';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '../../shared/schemas/webhook';
import { okBody } from '../helpers/api-responses';
import type { ListPage } from '../helpers/server';
import { screenshot, signedInPage } from './browser';
import { portalCall, portalOk, type UiContext } from './context';

/** Webhook endpoint upkeep, the mail outbox with SMTP settings, and the export download. */
export function settingsFlows(ui: UiContext) {
  describe('settings, messages and export', () => {
    it('disables, re-enables, rotates the secret of and deletes a webhook endpoint', async () => {
      const { page, server } = ui;
      const created = await portalOk<WebhookEndpointWithSecret>(ui, 'POST', '/webhooks', {
        url: 'https://hooks.example.com/shopdesk',
        description: 'Accounting sync',
      });
      await page.goto(`${server.url}/#/settings/webhooks/${created.id}`);
      const detail = page.locator('.card', { has: page.getByRole('button', { name: 'Rotate secret' }) });
      await detail.getByRole('button', { name: 'Disable' }).click();
      await detail.getByText('You disabled it').waitFor();
      expect((await portalOk<WebhookEndpoint>(ui, 'GET', `/webhooks/${created.id}`)).enabled).toBe(false);
      await screenshot(page, 'settings-webhook-disabled');

      await detail.getByRole('button', { name: 'Re-enable' }).click();
      await detail.getByRole('button', { name: 'Disable' }).waitFor();
      expect((await portalOk<WebhookEndpoint>(ui, 'GET', `/webhooks/${created.id}`)).enabled).toBe(true);

      await detail.getByRole('button', { name: 'Rotate secret' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Rotate secret' }).click();
      const secret = (await page.getByTestId('secret').textContent())!;
      expect(secret).toMatch(/^whsec_[A-Za-z0-9]{32}$/);
      expect(secret).not.toBe(created.secret);
      await screenshot(page, 'settings-webhook-rotated');
      await page.getByRole('button', { name: 'Done' }).click();
      await detail.getByText(/also signed with the previous secret/).waitFor();
      expect(await page.content()).not.toContain(secret);
      expect(
        (await portalOk<WebhookEndpoint>(ui, 'GET', `/webhooks/${created.id}`)).previous_secret_expires_at,
      ).not.toBeNull();

      await detail.getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Delete endpoint' }).click();
      await page.getByRole('dialog').waitFor({ state: 'hidden' });
      await expect
        .poll(async () => (await portalCall(ui, 'GET', `/webhooks/${created.id}`)).status)
        .toBe(404);
    });

    it('lists a queued invoice e-mail with the SMTP reason, and retries a failed one', async () => {
      const { page, server } = ui;
      const invoice = await portalOk<Invoice>(ui, 'POST', '/invoices/create', {
        customer_email: 'oliver@example.com',
        items: [{ description: 'Gutter cleaning', quantity: 1, unit_price: 180 }],
      });
      await portalOk(ui, 'POST', `/invoices/${invoice.number}/send`);
      await page.goto(`${server.url}/#/messages`);
      const row = page.getByRole('row', { name: new RegExp(invoice.number) });
      await row.waitFor();
      expect(await row.textContent()).toContain('Queued, waits for e-mail settings — Set up e-mail');
      expect(await row.getByRole('link', { name: 'Set up e-mail' }).getAttribute('href')).toBe(
        '#/settings/business',
      );
      await screenshot(page, 'messages');

      // A message the mail server refused, as the mail worker leaves it after its last attempt.
      const queued = (
        await portalOk<ListPage<OutboxMessage>>(ui, 'GET', '/messages?status=queued')
      ).data.find((m) => m.subject.includes(invoice.number))!;
      await server.ctx.db
        .updateTable('mail_messages')
        .set({ status: 'failed', last_error: '550 5.1.1 Mailbox unavailable', attempts: 5 })
        .where('id', '=', queued.id)
        .execute();
      await page.getByRole('button', { name: 'Refresh' }).click();
      const failed = page.getByRole('row', { name: /550 5\.1\.1 Mailbox unavailable/ });
      await failed.getByRole('button', { name: /^Retry/ }).click();
      await failed.waitFor({ state: 'detached' });
      const retried = (await portalOk<ListPage<OutboxMessage>>(ui, 'GET', '/messages')).data.find(
        (m: { id: string }) => m.id === queued.id,
      );
      expect(retried).toMatchObject({ status: 'queued', waiting_reason: 'smtp_not_configured' });
    });

    it('sets up SMTP with a write-only password', async () => {
      const { browser, server } = ui;
      const mailer = await server.createAccount({ business: 'Mailer Maids' });
      const page = await signedInPage(browser, server, mailer.clientId);
      await page.goto(`${server.url}/#/settings/business`);
      const form = page.getByRole('form', { name: 'E-mail settings' });
      await form.getByLabel('SMTP server').fill('smtp.example.com');
      await form.getByLabel('Port', { exact: true }).fill('587');
      await form.getByLabel('User name').fill('owner@mailermaids.example');
      await form.getByLabel('Password', { exact: true }).fill('app-password-1');
      await form.getByLabel('From address').fill('billing@mailermaids.example');
      await form.getByRole('button', { name: 'Save e-mail settings' }).click();
      await form.getByRole('button', { name: 'Replace password' }).waitFor();
      await screenshot(page, 'settings-smtp');
      expect(await page.content()).not.toContain('app-password-1');
      const config = okBody(await mailer.portal('GET', '/config'));
      expect(config.smtp).toMatchObject({ host: 'smtp.example.com', port: 587, password_set: true });
      expect(config.smtp).not.toHaveProperty('password');

      // Saving again without a new password keeps the stored one.
      await form.getByLabel('Port', { exact: true }).fill('2525');
      await form.getByRole('button', { name: 'Save e-mail settings' }).click();
      await expect.poll(async () => okBody(await mailer.portal('GET', '/config')).smtp?.port).toBe(2525);
      expect(okBody(await mailer.portal('GET', '/config')).smtp?.password_set).toBe(true);
      await page.context().close();
    });

    it('offers an export whose downloads answer with the right content types', async () => {
      const { page, server } = ui;
      await page.goto(`${server.url}/#/settings/export`);
      for (const [name, type] of [
        ['Download JSON', 'application/json'],
        ['Download CSV (zip)', 'application/zip'],
      ] as const) {
        const link = page.getByRole('link', { name });
        const target = (await link.getAttribute('href'))!;
        const response = await page.request.get(`${server.url}${target}`);
        expect(response.status(), target).toBe(200);
        expect(response.headers()['content-type']).toContain(type);
        expect((await response.body()).length).toBeGreaterThan(0);
      }
    });
  });
}
