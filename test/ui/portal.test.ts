import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTotals, fromCents } from '../../shared/money';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { backupFlows } from './backup-flows';
import { ensureRendererBuilt, launchChromium, screenshot, signedInPage } from './browser';
import { money, type UiContext } from './context';
import { customerFlows } from './customer-flows';
import { documentFlows } from './document-flows';
import { ownerWeekFlows } from './owner-week-flows';
import { pdfFlows } from './pdf-flows';
import { phoneFlows } from './phone-flows';
import { planFlows } from './plan-flows';
import { schedulingFlows } from './scheduling-flows';
import { settingsFlows } from './settings-flows';

let server: TestServer;
let browser: Browser;
let shop: TestAccount;
let page: Page;
/** The same server, browser and page, for the flows kept in their own modules. */
const ui = {} as UiContext;
const portalPath = () => `/api/portal/${shop.clientId}`;

async function seed(account: TestAccount) {
  const ok = async (method: string, path: string, body?: unknown) => {
    const response = await account.portal(method, path, { body });
    expect(response.status, `${method} ${path}: ${response.text}`).toBeLessThan(300);
    return response.body;
  };
  await ok('PUT', '/config', {
    business_name: 'Sparkle Cleaning',
    default_taxes: [
      { name: 'GST', rate: 0.05 },
      { name: 'PST', rate: 0.07 },
    ],
  });
  const today = new Date();
  const at = (days: number, hour: number) => {
    const d = new Date(
      Date.UTC(today.getUTCFullYear(), today.getUTCMonth(), today.getUTCDate() + days, hour + 5),
    );
    return d.toISOString().replace(/\.\d{3}Z$/, 'Z');
  };
  const people = [
    ['Maya Chen', 'maya@example.com', 'Move-out deep clean', 'Sam'],
    ['Oliver Grant', 'oliver@example.com', 'Window cleaning', 'Alex'],
    ['Priya Patel', 'priya@example.com', 'Weekly clean', 'Sam'],
    ['Lucas Martin', 'lucas@example.com', 'Carpet shampoo', 'Jordan'],
  ] as const;
  for (const [index, [name, email, title, who]] of people.entries()) {
    await ok('POST', '/customers', {
      name,
      email,
      phone: `+1 416 555 01${index}0`,
      tags: index % 2 ? ['vip'] : [],
    });
    await ok('POST', '/jobs/create', {
      customer_email: email,
      title,
      scheduled_start: at(index - 1, 9 + index),
      scheduled_end: at(index - 1, 11 + index),
      assignees: [who],
      price: 120 + index * 40,
    });
    const invoice = await ok('POST', '/invoices/create', {
      customer_email: email,
      items: [{ description: title, quantity: 1, unit_price: 120 + index * 40 }],
    });
    if (index < 2) await ok('POST', `/invoices/${invoice.number}/paid`, {});
    await ok('POST', '/reviews', {
      rating: 5 - (index % 3),
      comment: index === 2 ? 'Good, but they were a bit late.' : 'Spotless, and so friendly!',
      customer_email: email,
      source: index % 2 ? 'google' : 'website',
    });
  }
}

beforeAll(async () => {
  ensureRendererBuilt();
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Sparkle Cleaning' });
  await seed(shop);
  browser = await launchChromium();
  page = await signedInPage(browser, server, shop.clientId);
  Object.assign(ui, { server, browser, shop, page });
});

afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('portal UI', () => {
  it('explains how to sign in when there is no session', async () => {
    const context = await browser.newContext();
    const anonymous = await context.newPage();
    await anonymous.goto(server.url);
    // isVisible() does not wait for the first render; waitFor() does.
    await anonymous.getByRole('heading', { name: 'Sign in to Shopdesk' }).waitFor();
    expect(await anonymous.textContent('body')).toContain('npm run cli -- sign-in');
    await screenshot(anonymous, 'signed-out');
    await context.close();
  });

  it('signs in with the one-time link and shows the dashboard with its data', async () => {
    await page.waitForSelector('[data-testid="dashboard-loaded"]');
    const dashboard = (await shop.portal('GET', '/dashboard')).body;
    const text = await page.textContent('main');
    expect(text).toContain(money(dashboard.outstanding.amount));
    expect(text).toContain(money(dashboard.revenue_this_month.amount));
    await screenshot(page, 'dashboard');
  });

  it('serves the UI with a CSP, an index that is never cached, and an SPA fallback', async () => {
    const index = await fetch(`${server.url}/some/ui/path`);
    expect(index.status).toBe(200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${server.url}${asset}`);
    expect(script.headers.get('cache-control')).toContain('immutable');
    const apiMiss = await fetch(`${server.url}/api/portal/nope/unknown`);
    expect(apiMiss.headers.get('content-type')).toContain('application/json');
  });

  it('creates a customer and shows the field the server refused', async () => {
    await page.goto(`${server.url}/#/customers`);
    await page.getByRole('button', { name: 'New customer' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('E-mail').fill('maya@example.com');
    await dialog.getByRole('button', { name: 'Add customer' }).click();
    await dialog.locator('.field-error').waitFor();
    expect(await dialog.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('E-mail').fill('ada@example.com');
    await dialog.getByRole('button', { name: 'Add customer' }).click();
    await page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    const stored = await shop.portal('GET', '/customers/ada%40example.com');
    expect(stored.status).toBe(200);
    await page.goto(`${server.url}/#/customers`);
    await page.getByText('Oliver Grant').waitFor();
    await screenshot(page, 'customers');
  });

  it('creates an invoice with GST 5 % and PST 7 % whose live totals equal the server totals', async () => {
    await page.goto(`${server.url}/#/invoices/new?email=ada%40example.com&name=Ada%20Lovelace`);
    const form = page.getByRole('form', { name: 'New invoice' });
    await form.waitFor();
    expect(await form.getByLabel('Tax 1 name').inputValue()).toBe('GST');
    expect(await form.getByLabel('Tax 2 name').inputValue()).toBe('PST');
    await form.getByLabel('Description of line 1').fill('Deep clean, 3-bedroom house');
    await form.getByLabel('Quantity of line 1').fill('3');
    await form.getByLabel('Unit price of line 1').fill('33.33');
    await form.getByRole('button', { name: 'Add line' }).click();
    await form.getByLabel('Description of line 2').fill('Inside windows');
    await form.getByLabel('Quantity of line 2').fill('1.5');
    await form.getByLabel('Unit price of line 2').fill('19.99');

    const expected = computeTotals(
      [
        { description: 'a', quantity: 3, unit_price: 33.33 },
        { description: 'b', quantity: 1.5, unit_price: 19.99 },
      ],
      [
        { name: 'GST', rate: 0.05 },
        { name: 'PST', rate: 0.07 },
      ],
    );
    const shownTotal = await page.getByTestId('form-total').textContent();
    expect(shownTotal).toBe(money(fromCents(expected.total_cents)));
    const shownGst = await page.getByTestId('form-tax-0').textContent();
    const shownPst = await page.getByTestId('form-tax-1').textContent();
    await screenshot(page, 'invoice-new');

    await form.getByRole('button', { name: 'Create invoice' }).click();
    await page.getByRole('heading', { name: /Invoice INV-/ }).waitFor();
    const number = (await page.getByRole('heading', { name: /Invoice INV-/ }).textContent())!.match(
      /INV-\d+/,
    )![0];
    const invoice = (await shop.portal('GET', `/invoices/${number}`)).body;
    expect(shownTotal).toBe(money(invoice.total));
    expect(shownGst).toBe(money(invoice.taxes[0].amount));
    expect(shownPst).toBe(money(invoice.taxes[1].amount));
    expect(await page.getByTestId('doc-total').textContent()).toBe(money(invoice.total));

    await page.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Amount').fill('1000000');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await dialog.locator('.field-error, .notice-error').first().waitFor();
    await dialog.getByLabel('Amount').fill('50');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await page.locator('.badge', { hasText: 'Partially paid' }).waitFor();
    const paid = (await shop.portal('GET', `/invoices/${number}`)).body;
    expect(paid.status).toBe('partially_paid');
    expect(await page.getByTestId('doc-balance').textContent()).toBe(money(paid.balance));
    await screenshot(page, 'invoice-detail');

    await page.goto(`${server.url}/#/invoices`);
    await page.locator('table').getByText(number).waitFor();
    await screenshot(page, 'invoices');
  });

  it('creates a quote, records the acceptance and converts it into a job', async () => {
    await page.goto(`${server.url}/#/quotes/new`);
    const form = page.getByRole('form', { name: 'New quote' });
    await form.getByLabel('Customer e-mail').fill('oliver@example.com');
    await form.getByLabel('Description of line 1').fill('Gutter cleaning');
    await form.getByLabel('Unit price of line 1').fill('240');
    await form.getByRole('button', { name: 'Create quote' }).click();
    await page.getByRole('heading', { name: /Quote Q-/ }).waitFor();
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    // No e-mail settings here: the quote waits as a draft until it goes out or is marked as sent.
    await page.getByTestId('document-email').getByText('Queued, waits for e-mail settings').waitFor();
    await page.locator('.badge', { hasText: 'Draft' }).waitFor();
    await page.getByRole('button', { name: 'Mark as sent' }).click();
    await page.locator('.badge', { hasText: 'Sent' }).waitFor();
    await page.getByRole('button', { name: 'Accepted', exact: true }).click();
    await page.getByRole('button', { name: 'Convert to job' }).click();
    await page.locator('.badge', { hasText: 'Converted' }).waitFor();
    const number = (await page.getByRole('heading', { name: /Quote Q-/ }).textContent())!.match(/Q-\d+/)![0];
    const quote = (await shop.portal('GET', `/quotes/${number}`)).body;
    expect(quote.status).toBe('converted');
    expect(quote.job_id).toMatch(/^job_/);
    await page.getByTestId('converted-job-link').click();
    const job = (await shop.portal('GET', `/jobs/${quote.job_id}`)).body;
    await page.getByRole('heading', { name: new RegExp(job.job_number) }).waitFor();
    expect(job.quote_id).toBe(quote.id);
  });

  it('shows the jobs week, the team schedule and the insight screens', async () => {
    for (const [hash, name, ready] of [
      ['jobs', 'jobs-week', '[data-testid="week-view"]'],
      ['team', 'team-schedule', '.schedule'],
      ['reviews', 'reviews', '.rating-bars'],
      ['analytics', 'analytics', '.chart'],
      ['report', 'report', '.stat'],
      ['benchmark', 'benchmark', '.chart'],
      ['settings/business', 'settings-business', 'form'],
    ] as const) {
      await page.goto(`${server.url}/#/${hash}`);
      await page.waitForSelector(ready);
      expect(await page.locator('.notice-error').count(), `${hash} shows an error`).toBe(0);
      await screenshot(page, name);
    }
    expect(await page.getByLabel('Business name').inputValue()).toBe('Sparkle Cleaning');
  });

  it('creates a v1 key and shows its secret exactly once', async () => {
    await page.goto(`${server.url}/#/settings/integrations`);
    await page.getByRole('button', { name: 'New v1 key' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Website booking form');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = (await page.getByTestId('secret').textContent())!;
    expect(secret).toMatch(/^sd_live_[A-Za-z0-9]{32}$/);
    await screenshot(page, 'settings-key-created');
    const works = await server.request('GET', '/api/v1/clients', { key: secret });
    expect(works.status).toBe(200);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByText('Website booking form').waitFor();
    expect(await page.content()).not.toContain(secret);
    await screenshot(page, 'settings-integrations');
  });
});

describe('webhooks in the UI', () => {
  let receiver: Server;
  let received = 0;
  beforeAll(async () => {
    receiver = createServer((request, response) => {
      request.resume();
      received++;
      response.writeHead(200, { 'content-type': 'text/plain' }).end('thanks');
    });
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  });
  afterAll(() => new Promise<void>((resolve) => receiver.close(() => resolve())));

  it('adds an endpoint, sends a test event and shows the delivery with its response', async () => {
    const routes = await server.request('GET', `${portalPath()}/webhooks`, { key: shop.portalKey });
    expect(routes.status, 'GET /webhooks is registered in the portal API').toBe(200);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await page.goto(`${server.url}/#/settings/webhooks`);
    // The receiver is on 127.0.0.1: the owner allows local targets first.
    const allowLocal = page.getByLabel(/Allow endpoints on this computer/);
    // The box follows the saved setting, so it turns checked only once the server has answered.
    await allowLocal.click();
    await expect
      .poll(
        async () =>
          (await server.request('GET', `${portalPath()}/config`, { key: shop.portalKey })).body
            .allow_local_webhooks,
      )
      .toBe(true);
    await page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const dialog = page.getByRole('dialog');
    await dialog.getByLabel('URL').fill(url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Send test event' }).click();
    const row = page.locator('.delivery-row', { hasText: 'webhook.test' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await row.count()) > 0 && (await row.first().textContent())?.includes('Succeeded');
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    await row.first().click();
    await page.getByText('thanks').waitFor();
    expect(received).toBeGreaterThan(0);
    await screenshot(page, 'settings-webhooks');

    const before = received;
    await page.getByRole('button', { name: 'Send again' }).click();
    const resent = page.locator('.delivery-row', { hasText: 're-sent' });
    await expect
      .poll(
        async () => {
          await page.getByRole('button', { name: 'Refresh' }).click();
          return (await resent.count()) > 0 && (await resent.first().textContent())?.includes('Succeeded');
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    expect(received).toBeGreaterThan(before);
  });
});

describe('read-only plan', () => {
  it('says why and disables the write buttons', async () => {
    const basic = await server.createAccount({ business: 'Basic Barbers', plan: 'basic' });
    const readOnly = await signedInPage(browser, server, basic.clientId);
    await readOnly.goto(`${server.url}/#/customers`);
    await readOnly.getByText('Read-only:').waitFor();
    const create = readOnly.getByRole('button', { name: 'New customer' }).first();
    expect(await create.isDisabled()).toBe(true);
    expect(await create.getAttribute('title')).toContain('Platform plan');
    await screenshot(readOnly, 'read-only');
    await readOnly.context().close();
  });
});

documentFlows(ui);
schedulingFlows(ui);
settingsFlows(ui);

backupFlows(ui);

ownerWeekFlows(ui);

planFlows(ui);
phoneFlows(ui);
pdfFlows(ui);
customerFlows(ui);
