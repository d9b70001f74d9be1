import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createSignInToken } from '../../server/domain/sessions';
import { zonedToUtc } from '../../shared/time-zone';
import { expectError, expectOk, expectStatus, type Method, okBody } from '../helpers/api-responses';
import type { TestAccount } from '../helpers/server';
import { DESKTOP, screenshot, signedInPage } from './browser';
import type { UiContext } from './context';

const VANCOUVER = 'America/Vancouver';
const iso = (date: string, time: string, zone: string) =>
  zonedToUtc(date, time, zone)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');

/**
 * A new business of its own, signed in on a page of its own, so its settings touch no other flow.
 * The pages share one browser context, whose session each sign-in replaces: the tests run one
 * after another, and the renderer's files stay cached from one to the next.
 */
async function freshShop(
  ui: UiContext,
  context: BrowserContext,
  config: Record<string, unknown>,
): Promise<{ shop: TestAccount; page: Page }> {
  const shop = await ui.server.createAccount({ business: 'Coast Cleaning' });
  const configured = await shop.portal('PUT', '/config', { body: config });
  expect(configured.status, configured.text).toBe(200);
  return { shop, page: await signedInPage(context, ui.server, shop.clientId) };
}

/** The header of the day column an element sits in, on the team schedule's grid. */
async function columnHeader(page: Page, element: ReturnType<Page['locator']>) {
  const { x } = (await element.boundingBox())!;
  for (const head of await page.locator('.schedule-head').all()) {
    const box = (await head.boundingBox())!;
    if (x >= box.x && x < box.x + box.width) return head.textContent();
  }
  return undefined;
}

/** The defects of issue 13, each checked the way the owner met it. */
export function ownerWeekFlows(ui: UiContext) {
  describe("the owner's week", () => {
    let context: BrowserContext;
    beforeAll(async () => {
      context = await ui.browser.newContext({ viewport: DESKTOP });
    });
    afterAll(() => context?.close());

    it('shows a Vancouver Friday 00:30 job on Friday at 00:30 on every screen', async () => {
      const { shop, page } = await freshShop(ui, context, {
        timezone: VANCOUVER,
        business_name: 'Coast Cleaning',
      });
      const created = expectOk(
        await shop.portal('POST', '/jobs/create', {
          body: {
            customer_email: 'ada@example.com',
            customer_name: 'Ada Lovelace',
            title: 'Early office clean',
            scheduled_start: iso('2026-11-27', '00:30', VANCOUVER),
            scheduled_end: iso('2026-11-27', '02:30', VANCOUVER),
            assignees: ['Sam'],
          },
        }),
      );
      expect(created.status, created.text).toBe(201);
      expect(created.body.scheduled_start).toBe('2026-11-27T07:30:00Z');

      await page.goto(`${ui.server.url}/#/team?week=2026-11-23`);
      const event = page.locator('.schedule .event', { hasText: 'Early office clean' });
      await event.waitFor();
      expect(await event.textContent()).toMatch(/12:30/);
      expect(await columnHeader(page, event)).toMatch(/^Fri/);
      await screenshot(page, 'owner-week-team-schedule-vancouver');

      await page.goto(`${ui.server.url}/#/jobs?week=2026-11-23`);
      const friday = page.locator('.week-day', { has: page.locator('.week-day-head', { hasText: /Fri/ }) });
      const inWeek = friday.locator('.event', { hasText: 'Early office clean' });
      await inWeek.waitFor();
      expect(await inWeek.textContent()).toMatch(/12:30.*2:30/);
      await screenshot(page, 'owner-week-jobs-week-vancouver');

      await page.goto(`${ui.server.url}/#/jobs/${created.body.job_number}`);
      await page
        .getByText(/Nov 27, 2026.*12:30/)
        .first()
        .waitFor();
      await page.getByRole('button', { name: 'Reschedule or edit' }).click();
      expect(await page.getByRole('dialog').getByLabel('Starts').inputValue()).toBe('2026-11-27T00:30');
      await page.close();
    });

    it('never calls an invoice sent before its e-mail went out, with the same words on every screen', async () => {
      const { shop, page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      const create = async (email: string) => {
        const created = expectOk(
          await shop.portal('POST', '/invoices/create', {
            body: {
              customer_email: email,
              items: [{ description: 'Deep clean', quantity: 1, unit_price: 200 }],
            },
          }),
        );
        expect(created.status, created.text).toBe(201);
        return created.body;
      };
      const invoice = await create('maya@example.com');
      await page.goto(`${ui.server.url}/#/invoices/${invoice.number}`);
      await page.getByRole('button', { name: 'Send', exact: true }).click();
      await page.getByText(`${invoice.number}: Queued, waits for e-mail settings`).waitFor();
      const card = page.getByTestId('document-email');
      await card.getByText('Queued, waits for e-mail settings').waitFor();
      expect(await card.getByRole('link', { name: 'Set up e-mail' }).getAttribute('href')).toBe(
        '#/settings/business',
      );
      expect(await page.locator('.details', { hasText: 'Sent' }).textContent()).toContain('Not sent');
      expect(okBody(await shop.portal('GET', `/invoices/${invoice.number}`))).toMatchObject({
        status: 'draft',
        sent_at: null,
      });
      await screenshot(page, 'owner-week-invoice-queued');

      await page.goto(`${ui.server.url}/#/messages`);
      const row = page.getByRole('row', { name: new RegExp(invoice.number) });
      expect(await row.textContent()).toContain('Queued, waits for e-mail settings');
      await row.getByRole('button', { name: /^Open/ }).click();
      const dialog = page.getByRole('dialog');
      expect(await dialog.getByTestId('mail-body').textContent()).toContain(invoice.number);
      await dialog.getByRole('button', { name: 'Send now' }).click();
      await page.getByText('Not sent — set up e-mail first: Settings › Business › E-mail.').waitFor();
      await screenshot(page, 'owner-week-message-open');
      await page.keyboard.press('Escape');

      await page.goto(`${ui.server.url}/#/invoices/${invoice.number}`);
      await page.getByRole('button', { name: 'Mark paid' }).click();
      await card
        .getByText(`Not sent — Invoice ${invoice.number} was paid in full before this e-mail went out.`)
        .waitFor();
      await screenshot(page, 'owner-week-invoice-paid-mail-cancelled');

      const other = await create('oliver@example.com');
      await shop.portal('POST', `/invoices/${other.number}/send`);
      await page.goto(`${ui.server.url}/#/messages`);
      const otherRow = page.getByRole('row', { name: new RegExp(other.number) });
      await otherRow.getByRole('button', { name: /^Open/ }).click();
      await page.getByRole('dialog').getByRole('button', { name: 'Cancel e-mail' }).click();
      await otherRow.getByText('Not sent — Cancelled by you').waitFor();
      await page.close();
    });

    it('shows every refused field of a form at once, in words an owner uses', async () => {
      const { page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      await page.goto(`${ui.server.url}/#/jobs?new=1`);
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Customer e-mail').fill('ada@example');
      await dialog.getByLabel('Starts').fill('2026-12-04T10:00');
      await dialog.getByLabel('Ends').fill('2026-12-04T09:00');
      await dialog.getByRole('button', { name: 'Create job' }).click();
      await dialog.locator('.field-error').first().waitFor();
      const errors = await dialog.locator('.field-error').allTextContents();
      expect(errors).toEqual(
        expect.arrayContaining(['Must be an e-mail address such as name@example.com', 'Is required']),
      );
      expect(errors.join(' ')).not.toMatch(/Too small|expected string|scheduled_/);
      await screenshot(page, 'owner-week-job-form-errors');

      await dialog.getByLabel('Customer e-mail').fill('ada@example.com');
      await dialog.getByLabel('Title').fill('Window clean');
      await dialog.getByRole('button', { name: 'Create job' }).click();
      const ends = dialog.locator('.field', { has: page.getByLabel('Ends') }).locator('.field-error');
      await ends.waitFor();
      expect(await ends.textContent()).toBe('Must be after the start');
      await page.close();
    });

    it('invoices a job with the lines, prices and customer of the quote it came from', async () => {
      const { shop, page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      const call = async <M extends Method, P extends string>(method: M, path: P, body?: unknown) =>
        okBody(await shop.portal(method, path, { body }));
      const quote = await call('POST', '/quotes/create', {
        customer_email: 'priya@example.com',
        customer_name: 'Priya Patel',
        items: [
          { description: 'Carpet shampoo', quantity: 3, unit_price: 45 },
          { description: 'Stain treatment', quantity: 1, unit_price: 30 },
        ],
        taxes: [
          { name: 'GST', rate: 0.05 },
          { name: 'PST', rate: 0.07 },
        ],
      });
      for (const step of ['mark-sent', 'accept', 'convert'])
        await call('POST', `/quotes/${quote.number}/${step}`);
      const job = await call('GET', `/jobs/${(await call('GET', `/quotes/${quote.number}`)).job_id}`);
      await call('POST', `/jobs/${job.id}/complete`);

      await page.goto(`${ui.server.url}/#/jobs/${job.job_number}`);
      await page.getByRole('link', { name: 'Invoice this job' }).click();
      const form = page.getByRole('form', { name: 'New invoice' });
      await form.getByLabel('Description of line 2').waitFor();
      expect(await form.getByLabel('Customer e-mail').inputValue()).toBe('priya@example.com');
      expect(await form.getByLabel('Description of line 1').inputValue()).toBe('Carpet shampoo');
      expect(await form.getByLabel('Unit price of line 1').inputValue()).toBe('45');
      expect(await form.getByLabel('Description of line 2').inputValue()).toBe('Stain treatment');
      expect(await form.getByLabel('Notes').inputValue()).toContain(`Job ${job.job_number}`);
      await screenshot(page, 'owner-week-invoice-from-job');
      await form.getByRole('button', { name: 'Create invoice' }).click();
      await page.getByRole('heading', { name: /Invoice INV-/ }).waitFor();
      const invoices = await call('GET', '/invoices');
      expect(invoices.data[0]).toMatchObject({
        subtotal: 165,
        total: quote.total,
        customer: { email: 'priya@example.com' },
      });
      await page.close();
    });

    it('finds a customer by name or phone on a form, and keeps their page at their id', async () => {
      const { shop, page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      const maya = await shop.portal('POST', '/customers', {
        body: { name: 'Maya Chen', email: 'maya@example.com', phone: '+1 604 555 0199' },
      });
      expectStatus(maya, 201);

      await page.goto(`${ui.server.url}/#/jobs?new=1`);
      const dialog = page.getByRole('dialog');
      await dialog.getByLabel('Customer e-mail').fill('maya@exmaple.com');
      await dialog
        .getByText('No customer has this e-mail yet: a new one is added. Check the spelling.')
        .waitFor();
      await dialog.getByLabel('Find a customer').fill('6045550199');
      await dialog.getByRole('button', { name: /Maya Chen/ }).click();
      expect(await dialog.getByLabel('Customer e-mail').inputValue()).toBe('maya@example.com');
      await dialog.getByText('On file: Maya Chen').waitFor();
      await screenshot(page, 'owner-week-customer-picker');
      await dialog.getByLabel('Title').fill('Move-out clean');
      await dialog.getByRole('button', { name: 'Create job' }).click();
      await dialog.waitFor({ state: 'hidden' });
      const jobs = okBody(await shop.portal('GET', '/jobs')).data;
      expect(jobs.map((j: { customer: { id: string } }) => j.customer.id)).toEqual([maya.body.id]);
      expect(okBody(await shop.portal('GET', '/customers')).data).toHaveLength(1);

      await page.goto(`${ui.server.url}/#/customers`);
      await page.getByRole('row', { name: /Maya Chen/ }).click();
      await page.waitForURL(new RegExp(`#/customers/${maya.body.id}$`));
      await shop.portal('PATCH', `/customers/${maya.body.id}`, { body: { email: 'maya.chen@example.com' } });
      await page.reload();
      await page.getByText('maya.chen@example.com').first().waitFor();
      await page.close();
    });

    it('reschedules by dragging a job to another day, and schedules one from the unscheduled list', async () => {
      const { shop, page } = await freshShop(ui, context, {
        timezone: VANCOUVER,
        business_name: 'Coast Cleaning',
      });
      const create = async (body: Record<string, unknown>) => {
        const created = expectOk(
          await shop.portal('POST', '/jobs/create', {
            body: { customer_email: 'ada@example.com', customer_name: 'Ada Lovelace', ...body },
          }),
        );
        expect(created.status, created.text).toBe(201);
        return created.body;
      };
      const windows = await create({
        title: 'Windows, inside and out, all three floors',
        scheduled_start: iso('2026-11-27', '09:00', VANCOUVER),
        scheduled_end: iso('2026-11-27', '11:00', VANCOUVER),
      });
      const oven = await create({ title: 'Oven clean' });

      await page.goto(`${ui.server.url}/#/jobs?week=2026-11-23`);
      const event = page.locator('.week .event', { hasText: 'Windows, inside and out, all three floors' });
      await event.getByText('Ada Lovelace').waitFor();
      await event.dragTo(page.locator('.week-day[data-day="2026-11-24"]'));
      await page.locator('.week-day[data-day="2026-11-24"] .event', { hasText: 'Windows' }).waitFor();
      expect(okBody(await shop.portal('GET', `/jobs/${windows.id}`))).toMatchObject({
        scheduled_start: iso('2026-11-24', '09:00', VANCOUVER),
        scheduled_end: iso('2026-11-24', '11:00', VANCOUVER),
      });

      const waiting = page.getByTestId('unscheduled-jobs').locator('.event', { hasText: 'Oven clean' });
      await waiting.dragTo(page.locator('.week-day[data-day="2026-11-25"]'));
      await page.locator('.week-day[data-day="2026-11-25"] .event', { hasText: 'Oven clean' }).waitFor();
      expect(okBody(await shop.portal('GET', `/jobs/${oven.id}`))).toMatchObject({
        status: 'scheduled',
        scheduled_start: iso('2026-11-25', '09:00', VANCOUVER),
      });
      await screenshot(page, 'owner-week-jobs-week-dragged');
      await page.close();
    });

    it('chooses time zone and currency from lists, and keeps the currency once money is on record', async () => {
      const { shop, page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      const xyz = expectError(await shop.portal('PUT', '/config', { body: { currency: 'XYZ' } }));
      expect([xyz.status, xyz.body.error.param]).toEqual([400, 'currency']);
      const zone = expectError(await shop.portal('PUT', '/config', { body: { timezone: 'Mars/Olympus' } }));
      expect([zone.status, zone.body.error.param]).toEqual([400, 'timezone']);

      await page.goto(`${ui.server.url}/#/settings/business`);
      await page.getByLabel('Time zone').selectOption('America/Vancouver');
      await page.getByLabel('Currency').selectOption('USD');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved').waitFor();
      expect(okBody(await shop.portal('GET', '/config'))).toMatchObject({
        timezone: 'America/Vancouver',
        currency: 'USD',
      });

      const invoice = await shop.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'ada@example.com',
          items: [{ description: 'Clean', quantity: 1, unit_price: 90 }],
        },
      });
      expectStatus(invoice, 201);
      await page.reload();
      await page.getByLabel('Currency').selectOption('CAD');
      await page.getByRole('button', { name: 'Save settings' }).click();
      const refusal = page.locator('.field', { has: page.getByLabel('Currency') }).locator('.field-error');
      await refusal.waitFor();
      expect(await refusal.textContent()).toContain('Keep USD');
      await screenshot(page, 'owner-week-settings-currency-kept');
      expect(okBody(await shop.portal('GET', '/config')).currency).toBe('USD');
      await page.close();
    });

    it('asks before Back or Refresh drops a half-written invoice, and not once it is saved', async () => {
      const { page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      await page.goto(`${ui.server.url}/#/invoices`);
      await page.goto(`${ui.server.url}/#/invoices/new`);
      const form = page.getByRole('form', { name: 'New invoice' });
      await form.getByLabel('Customer e-mail').fill('ada@example.com');
      await form.getByLabel('Description of line 1').fill('Deep clean');
      await form.getByLabel('Unit price of line 1').fill('150');

      const asked = page.waitForEvent('dialog');
      await page.goBack();
      const question = await asked;
      expect([question.type(), question.message()]).toEqual([
        'confirm',
        'Leave this page? Your changes are not saved.',
      ]);
      await question.dismiss();
      await page.waitForURL(/#\/invoices\/new$/);
      expect(await form.getByLabel('Description of line 1').inputValue()).toBe('Deep clean');

      // Refresh and closing ask through the browser's own prompt, which a cancelled beforeunload opens.
      const refresh = await page.evaluate(() => {
        const event = new Event('beforeunload', { cancelable: true });
        window.dispatchEvent(event);
        return event.defaultPrevented;
      });
      expect(refresh).toBe(true);

      await form.getByRole('button', { name: 'Create invoice' }).click();
      await page.getByRole('heading', { name: /Invoice INV-/ }).waitFor();
      await page.close();
    });

    it('tells the truth in small places: plurals, where the calendar feed works, a used sign-in link', async () => {
      const { shop, page } = await freshShop(ui, context, { business_name: 'Coast Cleaning' });
      const invoice = expectOk(
        await shop.portal('POST', '/invoices/create', {
          body: {
            customer_email: 'ada@example.com',
            items: [{ description: 'Clean', quantity: 1, unit_price: 90 }],
          },
        }),
      );
      await shop.portal('POST', `/invoices/${invoice.body.number}/mark-sent`);
      await page.goto(`${ui.server.url}/#/`);
      await page.getByText('1 open invoice', { exact: true }).waitFor();

      await page.goto(`${ui.server.url}/#/settings/integrations`);
      const reach = page.getByTestId('feed-reach');
      expect(await reach.textContent()).toContain('On this computer');
      await reach.getByText('How to set that up').click();
      await reach.getByText('npm run serve -- --host 0.0.0.0').waitFor();
      await screenshot(page, 'owner-week-calendar-card');

      const token = await createSignInToken(ui.server.ctx, shop.clientId);
      const visitor = await (await ui.browser.newContext()).newPage();
      await visitor.goto(`${ui.server.url}/sign-in?token=${token}`);
      await visitor.goto(`${ui.server.url}/sign-in?token=${token}`);
      await visitor.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
      await screenshot(visitor, 'owner-week-sign-in-link-used');
      await visitor.close();
      await page.close();
    });
  });
}
