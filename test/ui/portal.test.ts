import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { computeTotals, fromCents } from '../../shared/money';
import { expectStatus, okBody } from '../helpers/api-responses';
import { screenshot } from './browser';
import { money } from './context';
import { startPortalSession } from './portal-session';
import { signInHere } from './sign-in-here';

/**
 * Signing in, the first screens, documents and webhooks in the portal UI. The other flows have a
 * test file each (documents, scheduling, settings, backups, owner-week, plans, phone, pdf).
 */
const ui = startPortalSession();
const portalPath = () => `/api/portal/${ui.shop.clientId}` as const;

describe('portal UI', () => {
  it('explains how to sign in when there is no session', async () => {
    const context = await ui.browser.newContext();
    const anonymous = await context.newPage();
    await anonymous.goto(ui.server.url);
    // isVisible() does not wait for the first render; waitFor() does.
    await anonymous.getByRole('heading', { name: 'Sign in to Shopdesk' }).waitFor();
    expect(await anonymous.textContent('body')).toContain('npm run cli -- sign-in');
    await screenshot(anonymous, 'signed-out');
    await context.close();
  });

  it('signs in with the one-time link and shows the dashboard with its data', async () => {
    await ui.page.waitForSelector('[data-testid="dashboard-loaded"]');
    const dashboard = okBody(await ui.shop.portal('GET', '/dashboard'));
    const text = await ui.page.textContent('main');
    expect(text).toContain(money(dashboard.outstanding.amount));
    expect(text).toContain(money(dashboard.revenue_this_month.amount));
    await screenshot(ui.page, 'dashboard');
  });

  it('serves the UI with a CSP, an index that is never cached, and an SPA fallback', async () => {
    const index = await fetch(`${ui.server.url}/some/ui/path`);
    expectStatus(index, 200);
    expect(index.headers.get('cache-control')).toBe('no-cache');
    expect(index.headers.get('content-security-policy')).toContain("script-src 'self'");
    const html = await index.text();
    const asset = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(asset).toBeDefined();
    const script = await fetch(`${ui.server.url}${asset}`);
    expect(script.headers.get('cache-control')).toContain('immutable');
    const apiMiss = await fetch(`${ui.server.url}/api/portal/nope/unknown`);
    expect(apiMiss.headers.get('content-type')).toContain('application/json');
  });

  it('creates a customer and shows the field the server refused', async () => {
    await ui.page.goto(`${ui.server.url}/#/customers`);
    await ui.page.getByRole('button', { name: 'New customer' }).first().click();
    const dialog = ui.page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Ada Lovelace');
    await dialog.getByLabel('E-mail').fill('maya@example.com');
    await dialog.getByRole('button', { name: 'Add customer' }).click();
    await dialog.locator('.field-error').waitFor();
    expect(await dialog.getByLabel('E-mail').getAttribute('aria-invalid')).toBe('true');
    await dialog.getByLabel('E-mail').fill('ada@example.com');
    await dialog.getByRole('button', { name: 'Add customer' }).click();
    await ui.page.getByRole('heading', { name: 'Ada Lovelace' }).waitFor();
    const stored = await ui.shop.portal('GET', '/customers/ada%40example.com');
    expectStatus(stored, 200);
    await ui.page.goto(`${ui.server.url}/#/customers`);
    await ui.page.getByText('Oliver Grant').waitFor();
    await screenshot(ui.page, 'customers');
  });

  it('creates an invoice with GST 5 % and PST 7 % whose live totals equal the server totals', async () => {
    await ui.page.goto(`${ui.server.url}/#/invoices/new?email=ada%40example.com&name=Ada%20Lovelace`);
    const form = ui.page.getByRole('form', { name: 'New invoice' });
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
    const shownTotal = await ui.page.getByTestId('form-total').textContent();
    expect(shownTotal).toBe(money(fromCents(expected.total_cents)));
    const shownGst = await ui.page.getByTestId('form-tax-0').textContent();
    const shownPst = await ui.page.getByTestId('form-tax-1').textContent();
    await screenshot(ui.page, 'invoice-new');

    await form.getByRole('button', { name: 'Create invoice' }).click();
    await ui.page.getByRole('heading', { name: /Invoice INV-/ }).waitFor();
    const number = (await ui.page.getByRole('heading', { name: /Invoice INV-/ }).textContent())!.match(
      /INV-\d+/,
    )![0];
    const invoice = okBody(await ui.shop.portal('GET', `/invoices/${number}`));
    expect(shownTotal).toBe(money(invoice.total));
    expect(shownGst).toBe(money(invoice.taxes[0]!.amount));
    expect(shownPst).toBe(money(invoice.taxes[1]!.amount));
    expect(await ui.page.getByTestId('doc-total').textContent()).toBe(money(invoice.total));

    await ui.page.getByRole('button', { name: 'Record payment' }).click();
    const dialog = ui.page.getByRole('dialog');
    await dialog.getByLabel('Amount').fill('1000000');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await dialog.locator('.field-error, .notice-error').first().waitFor();
    await dialog.getByLabel('Amount').fill('50');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await ui.page.locator('.badge', { hasText: 'Partially paid' }).waitFor();
    const paid = okBody(await ui.shop.portal('GET', `/invoices/${number}`));
    expect(paid.status).toBe('partially_paid');
    expect(await ui.page.getByTestId('doc-balance').textContent()).toBe(money(paid.balance));
    await screenshot(ui.page, 'invoice-detail');

    await ui.page.goto(`${ui.server.url}/#/invoices`);
    await ui.page.locator('table').getByText(number).waitFor();
    await screenshot(ui.page, 'invoices');
  });

  it('creates a quote, records the acceptance and converts it into a job', async () => {
    await ui.page.goto(`${ui.server.url}/#/quotes/new`);
    const form = ui.page.getByRole('form', { name: 'New quote' });
    await form.getByLabel('Customer e-mail').fill('oliver@example.com');
    await form.getByLabel('Description of line 1').fill('Gutter cleaning');
    await form.getByLabel('Unit price of line 1').fill('240');
    await form.getByRole('button', { name: 'Create quote' }).click();
    await ui.page.getByRole('heading', { name: /Quote Q-/ }).waitFor();
    await ui.page.getByRole('button', { name: 'Send', exact: true }).click();
    // No e-mail settings here: the quote waits as a draft until it goes out or is marked as sent.
    await ui.page.getByTestId('document-email').getByText('Queued, waits for e-mail settings').waitFor();
    await ui.page.locator('.badge', { hasText: 'Draft' }).waitFor();
    await ui.page.getByRole('button', { name: 'Mark as sent' }).click();
    await ui.page.locator('.badge', { hasText: 'Sent' }).waitFor();
    await ui.page.getByRole('button', { name: 'Accepted', exact: true }).click();
    await ui.page.getByRole('button', { name: 'Convert to job' }).click();
    await ui.page.locator('.badge', { hasText: 'Converted' }).waitFor();
    const number = (await ui.page.getByRole('heading', { name: /Quote Q-/ }).textContent())!.match(
      /Q-\d+/,
    )![0];
    const quote = okBody(await ui.shop.portal('GET', `/quotes/${number}`));
    expect(quote.status).toBe('converted');
    expect(quote.job_id).toMatch(/^job_/);
    await ui.page.getByTestId('converted-job-link').click();
    const job = okBody(await ui.shop.portal('GET', `/jobs/${quote.job_id}`));
    await ui.page.getByRole('heading', { name: new RegExp(job.job_number) }).waitFor();
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
      await ui.page.goto(`${ui.server.url}/#/${hash}`);
      await ui.page.waitForSelector(ready);
      expect(await ui.page.locator('.notice-error').count(), `${hash} shows an error`).toBe(0);
      await screenshot(ui.page, name);
    }
    expect(await ui.page.getByLabel('Business name').inputValue()).toBe('Sparkle Cleaning');
  });

  it('creates a v1 key and shows its secret exactly once', async () => {
    await ui.page.goto(`${ui.server.url}/#/settings/integrations`);
    await ui.page.getByRole('button', { name: 'New v1 key' }).click();
    const dialog = ui.page.getByRole('dialog');
    await dialog.getByLabel('Name').fill('Website booking form');
    await dialog.getByRole('button', { name: 'Create key' }).click();
    const secret = (await ui.page.getByTestId('secret').textContent())!;
    expect(secret).toMatch(/^sd_live_[A-Za-z0-9]{32}$/);
    await screenshot(ui.page, 'settings-key-created');
    const works = await ui.server.request('GET', '/api/v1/clients', { key: secret });
    expectStatus(works, 200);
    await ui.page.getByRole('button', { name: 'Done' }).click();
    await ui.page.getByText('Website booking form').waitFor();
    expect(await ui.page.content()).not.toContain(secret);
    await screenshot(ui.page, 'settings-integrations');
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
    const routes = await ui.server.request('GET', `${portalPath()}/webhooks`, { key: ui.shop.portalKey });
    expect(routes.status, 'GET /webhooks is registered in the portal API').toBe(200);
    const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks`;
    await ui.page.goto(`${ui.server.url}/#/settings/webhooks`);
    // The receiver is on 127.0.0.1: the owner allows local targets first.
    const allowLocal = ui.page.getByLabel(/Allow endpoints on this computer/);
    // The box follows the saved setting, so it turns checked only once the server has answered.
    await allowLocal.click();
    await expect
      .poll(
        async () =>
          okBody(await ui.server.request('GET', `${portalPath()}/config`, { key: ui.shop.portalKey }))
            .allow_local_webhooks,
      )
      .toBe(true);
    await ui.page.getByRole('button', { name: 'Add endpoint' }).first().click();
    const dialog = ui.page.getByRole('dialog');
    await dialog.getByLabel('URL').fill(url);
    await dialog.getByRole('button', { name: 'Add endpoint' }).click();
    expect(await ui.page.getByTestId('secret').textContent()).toMatch(/^whsec_/);
    await ui.page.getByRole('button', { name: 'Done' }).click();
    await ui.page.getByRole('button', { name: 'Send test event' }).click();
    const row = ui.page.locator('.delivery-row', { hasText: 'webhook.test' });
    await expect
      .poll(
        async () => {
          await ui.page.getByRole('button', { name: 'Refresh' }).click();
          return (await row.count()) > 0 && (await row.first().textContent())?.includes('Succeeded');
        },
        { timeout: 20_000, interval: 500 },
      )
      .toBe(true);
    await row.first().click();
    await ui.page.getByText('thanks').waitFor();
    expect(received).toBeGreaterThan(0);
    await screenshot(ui.page, 'settings-webhooks');

    const before = received;
    await ui.page.getByRole('button', { name: 'Send again' }).click();
    const resent = ui.page.locator('.delivery-row', { hasText: 're-sent' });
    await expect
      .poll(
        async () => {
          await ui.page.getByRole('button', { name: 'Refresh' }).click();
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
    const basic = await ui.server.createAccount({ business: 'Basic Barbers', plan: 'basic' });
    // The last flow of the file: it signs the session's own page in to the read-only business.
    await signInHere(ui.page, ui.server, basic.clientId);
    await ui.page.goto(`${ui.server.url}/#/customers`);
    await ui.page.getByText('Read-only:').waitFor();
    const create = ui.page.getByRole('button', { name: 'New customer' }).first();
    expect(await create.isDisabled()).toBe(true);
    expect(await create.getAttribute('title')).toContain('Platform plan');
    await screenshot(ui.page, 'read-only');
  });
});
