import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Method, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { screenshot, signedInPage } from './browser';
import { runBrowser } from './run-browser';

let server: TestServer;
let browser: Browser;
let shop: TestAccount;
let page: Page;

async function ok<M extends Method, P extends string>(method: M, path: P, body?: unknown) {
  return okBody(await shop.portal(method, path, { body }));
}

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount({ business: 'Sparkle Cleaning' });
  await ok('PUT', '/config', { timezone: 'America/Toronto' });
  const taxes = [
    { name: 'GST', rate: 0.05 },
    { name: 'PST', rate: 0.07 },
  ];
  // 1,000.00 + GST 50.00 + PST 70.00, 400.00 paid; 99.99 + GST 5.00 + PST 7.00, paid in full.
  const first = await ok('POST', '/invoices/create', {
    customer_email: 'maya@example.com',
    customer_name: 'Maya Chen',
    items: [{ description: 'Move-out clean', quantity: 1, unit_price: 1000 }],
    taxes,
  });
  await ok('POST', `/invoices/${first.number}/mark-sent`);
  await ok('POST', `/invoices/${first.number}/payment`, { amount: 400 });
  const second = await ok('POST', '/invoices/create', {
    customer_email: 'oliver@example.com',
    customer_name: 'Oliver Grant',
    items: [{ description: 'Windows', quantity: 3, unit_price: 33.33 }],
    taxes,
  });
  await ok('POST', `/invoices/${second.number}/mark-sent`);
  await ok('POST', `/invoices/${second.number}/paid`);
  browser = await runBrowser();
  page = await signedInPage(browser, server, shop.clientId);
}, 180_000);
afterAll(async () => {
  await browser?.close();
  await server?.stop();
});

describe('sales tax screen', () => {
  it('shows each tax by rate for the quarter, on either basis, and downloads the CSV', async () => {
    await page.goto(`${server.url}/#/sales-tax`);
    const gst = page.getByRole('row', { name: /GST/ });
    await gst.waitFor();
    expect(await gst.textContent()).toContain('$1,099.99');
    expect(await gst.textContent()).toContain('$55.00');
    expect(await page.getByRole('row', { name: /PST/ }).textContent()).toContain('$77.00');
    await screenshot(page, 'sales-tax-accrual');

    await page.getByRole('button', { name: 'Payments received (cash)' }).click();
    // 400.00 of 1,120.00 carries GST 17.86 and PST 25.00 on 357.14 of sales; the paid invoice all of
    // its 5.00 and 7.00 on 99.99.
    await page.getByRole('row', { name: /GST.*\$22\.86/ }).waitFor();
    expect(await page.getByRole('row', { name: /PST/ }).textContent()).toContain('$32.00');
    await screenshot(page, 'sales-tax-cash');

    const href = await page.getByRole('link', { name: 'Download CSV' }).getAttribute('href');
    expect(href).toContain('basis=cash');
    const csv = await page.evaluate(async (url) => (await fetch(url!)).text(), href);
    expect(csv).toContain('GST,5,,457.13,22.86,2,CAD');
  });
});

describe('Settings › Reminders', () => {
  it('switches a reminder on, refuses an unknown placeholder beside the field, and previews the e-mail', async () => {
    await page.goto(`${server.url}/#/settings/reminders`);
    const overdue = page.locator('.card', { hasText: 'Overdue invoices' });
    await overdue.getByLabel('Send overdue invoice reminders').check();
    const body = overdue.getByLabel('Message');
    await body.fill('Hi {customer_name}, you owe {amount}.');
    await page.getByRole('button', { name: 'Save reminders' }).click();
    await overdue.getByText('has an unknown placeholder {amount}').waitFor();
    await screenshot(page, 'settings-reminders-error');

    await body.fill(
      'Hi {customer_name}, invoice {invoice_number} for {amount_due} is overdue.\n\n{business_name}',
    );
    const preview = overdue.getByRole('region', { name: 'Overdue invoices: preview' });
    expect(await preview.textContent()).toContain(
      'Hi Ada Lovelace, invoice INV-0042 for $271.20 is overdue.',
    );
    expect(await preview.textContent()).toContain('Sparkle Cleaning');
    await overdue.getByLabel('Days after the due date').fill('5, 10');
    await page.getByRole('button', { name: 'Save reminders' }).click();
    await page.getByText('Reminder settings saved').waitFor();
    const saved = await ok('GET', '/reminders/settings');
    expect(saved.invoice_overdue).toMatchObject({ enabled: true, days_after_due: [5, 10] });
    await screenshot(page, 'settings-reminders');
  });

  it('keeps tax registration numbers under Settings › Business', async () => {
    await page.goto(`${server.url}/#/settings/business`);
    const card = page.locator('.card', { hasText: 'Tax registration numbers' });
    await card.getByRole('button', { name: 'Add number' }).click();
    await card.getByLabel('Tax', { exact: true }).fill('GST');
    await card.getByLabel('Registration number').fill('123456789 RT0001');
    await page.getByRole('button', { name: 'Save settings' }).click();
    await page.getByText('Settings saved', { exact: true }).waitFor();
    expect((await ok('GET', '/config')).tax_registrations).toEqual([
      { tax_name: 'GST', number: '123456789 RT0001' },
    ]);
    await screenshot(page, 'settings-tax-registrations');
  });
});
