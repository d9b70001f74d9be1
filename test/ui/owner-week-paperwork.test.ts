import { describe, expect, it } from 'vitest';
import { createSignInToken } from '../../server/domain/sessions';
import { expectOk, expectStatus, type Method, okBody } from '../helpers/api-responses';
import { screenshot } from './browser';
import { startFreshShops } from './fresh-shops';
import { freshShopsOnOnePage } from './sign-in-here';

const week = startFreshShops();
const shopOnPage = freshShopsOnOnePage(week);

/** The defects of issue 13 in invoices, their e-mails and customers, each checked the way the owner met it. */
describe("the owner's week: invoices, their e-mails and customers", () => {
  it('never calls an invoice sent before its e-mail went out, with the same words on every screen', async () => {
    const { shop, page } = await shopOnPage({ business_name: 'Coast Cleaning' });
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
    await page.goto(`${week.server.url}/#/invoices/${invoice.number}`);
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

    await page.goto(`${week.server.url}/#/messages`);
    const row = page.getByRole('row', { name: new RegExp(invoice.number) });
    expect(await row.textContent()).toContain('Queued, waits for e-mail settings');
    await row.getByRole('button', { name: /^Open/ }).click();
    const dialog = page.getByRole('dialog');
    expect(await dialog.getByTestId('mail-body').textContent()).toContain(invoice.number);
    await dialog.getByRole('button', { name: 'Send now' }).click();
    await page.getByText('Not sent — set up e-mail first: Settings › Business › E-mail.').waitFor();
    await screenshot(page, 'owner-week-message-open');
    await page.keyboard.press('Escape');

    await page.goto(`${week.server.url}/#/invoices/${invoice.number}`);
    await page.getByRole('button', { name: 'Mark paid' }).click();
    await card
      .getByText(`Not sent — Invoice ${invoice.number} was paid in full before this e-mail went out.`)
      .waitFor();
    await screenshot(page, 'owner-week-invoice-paid-mail-cancelled');

    const other = await create('oliver@example.com');
    await shop.portal('POST', `/invoices/${other.number}/send`);
    await page.goto(`${week.server.url}/#/messages`);
    const otherRow = page.getByRole('row', { name: new RegExp(other.number) });
    await otherRow.getByRole('button', { name: /^Open/ }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel e-mail' }).click();
    await otherRow.getByText('Not sent — Cancelled by you').waitFor();
  });

  it('invoices a job with the lines, prices and customer of the quote it came from', async () => {
    const { shop, page } = await shopOnPage({ business_name: 'Coast Cleaning' });
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

    await page.goto(`${week.server.url}/#/jobs/${job.job_number}`);
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
  });

  it('finds a customer by name or phone on a form, and keeps their page at their id', async () => {
    const { shop, page } = await shopOnPage({ business_name: 'Coast Cleaning' });
    const maya = await shop.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'maya@example.com', phone: '+1 604 555 0199' },
    });
    expectStatus(maya, 201);

    await page.goto(`${week.server.url}/#/jobs?new=1`);
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

    await page.goto(`${week.server.url}/#/customers`);
    await page.getByRole('row', { name: /Maya Chen/ }).click();
    await page.waitForURL(new RegExp(`#/customers/${maya.body.id}$`));
    await shop.portal('PATCH', `/customers/${maya.body.id}`, { body: { email: 'maya.chen@example.com' } });
    // Back to the list and forward again: the page at her id loads her anew.
    await page.goBack();
    await page.getByRole('row', { name: /Maya Chen/ }).waitFor();
    await page.goForward();
    await page.getByText('maya.chen@example.com').first().waitFor();
    expect(page.url()).toMatch(new RegExp(`#/customers/${maya.body.id}$`));
  });

  it('asks before Back or Refresh drops a half-written invoice, and not once it is saved', async () => {
    const { page } = await shopOnPage({ business_name: 'Coast Cleaning' });
    await page.goto(`${week.server.url}/#/invoices`);
    await page.goto(`${week.server.url}/#/invoices/new`);
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
  });

  it('tells the truth in small places: plurals, where the calendar feed works, a used sign-in link', async () => {
    const { shop, page } = await shopOnPage({ business_name: 'Coast Cleaning' });
    const invoice = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'ada@example.com',
          items: [{ description: 'Clean', quantity: 1, unit_price: 90 }],
        },
      }),
    );
    await shop.portal('POST', `/invoices/${invoice.body.number}/mark-sent`);
    // The sign-in landed on the dashboard, which may have asked for its figures before the invoice
    // was there; `#/` is where it already is, so only a reload asks again.
    await page.reload();
    await page.getByText('1 open invoice', { exact: true }).waitFor();

    await page.goto(`${week.server.url}/#/settings/integrations`);
    const reach = page.getByTestId('feed-reach');
    expect(await reach.textContent()).toContain('On this computer');
    await reach.getByText('How to set that up').click();
    await reach.getByText('npm run serve -- --host 0.0.0.0').waitFor();
    await screenshot(page, 'owner-week-calendar-card');

    const token = await createSignInToken(week.server.ctx, shop.clientId);
    // The link's first use needs no page (the renderer it leads to is checked everywhere else).
    const first = await week.server.request<string>('GET', `/sign-in?token=${token}`);
    expect(first.status).toBe(303);
    // The second use on this page: the server refuses a used link whatever session the browser
    // holds, so a browser context without one (a new context, seconds of Chromium) shows the same.
    await page.goto(`${week.server.url}/sign-in?token=${token}`);
    await page.getByRole('heading', { name: 'This sign-in link cannot be used' }).waitFor();
    await screenshot(page, 'owner-week-sign-in-link-used');
  });
});
