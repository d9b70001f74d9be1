import type { AddressInfo } from 'node:net';
import type { Browser, Locator, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { type Method, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { screenshot, signedInPage } from './browser';
import { runBrowser } from './run-browser';

/**
 * The rough edges of a first week in Vancouver (issue 20, items 1–7), through the UI: a server of
 * its own whose clock reads 8:40 p.m. on 23 November in Vancouver (already the 24th in UTC), and a
 * real SMTP server that holds each message until the test lets it through.
 */

const NOW = '2026-11-24T03:40:00Z';
const clock = manualClock(NOW);
let server: TestServer;
let browser: Browser;
let shop: TestAccount;
let page: Page;
let smtp: SMTPServer;
let smtpPort: number;
/** Messages the SMTP server holds: calling one lets that message through. */
const held: Array<() => void> = [];

async function ok<M extends Method, P extends string>(method: M, path: P, body?: unknown) {
  return okBody(await shop.portal(method, path, { body }));
}

const items = [{ description: 'Strata lobby clean', quantity: 1, unit_price: 400 }];
const taxes = [{ name: 'GST', rate: 0.05 }];

beforeAll(async () => {
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, _session, callback) {
      stream.on('data', () => undefined);
      stream.on('end', () => held.push(() => callback(null, 'Ok: queued as SINK1')));
    },
  });
  await new Promise<void>((resolve) => smtp.listen(0, '127.0.0.1', resolve));
  smtpPort = (smtp.server.address() as AddressInfo).port;
  server = await startTestServer({ clock });
  shop = await server.createAccount({ business: 'Harbour Cleaning' });
  await ok('PUT', '/config', {
    business_name: 'Harbour Cleaning',
    timezone: 'America/Vancouver',
    business_email: 'office@harbour.example',
    smtp: { host: '127.0.0.1', port: smtpPort, secure: false },
  });
  await ok('POST', '/customers', { name: 'Hank Miller', email: 'hank@example.com' });
  await ok('POST', '/team', { name: 'Priya' });
  browser = await runBrowser();
  page = await signedInPage(browser, server, shop.clientId);
  // The browser's clock reads the same instant as the server's; its timers keep running.
  await page.clock.setFixedTime(new Date(NOW));
}, 180_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  for (const release of held.splice(0)) release();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

describe("the business's time zone", () => {
  it('greets by the hour in Vancouver and dates customers and the team by its days', async () => {
    await page.goto(`${server.url}/#/`);
    await page.getByTestId('dashboard-loaded').waitFor();
    await page.getByRole('heading', { name: 'Good evening, Harbour Cleaning' }).waitFor();
    await screenshot(page, 'dashboard-evening-vancouver');

    await page.goto(`${server.url}/#/customers/hank%40example.com`);
    await page.getByRole('heading', { name: 'Hank Miller' }).waitFor();
    await page.getByText('customer since Nov 23, 2026').waitFor();
    await screenshot(page, 'customer-since-vancouver');

    await page.goto(`${server.url}/#/team`);
    const priya = page.getByRole('row', { name: /Priya/ });
    await priya.waitFor();
    expect(await priya.textContent()).toContain('Nov 23, 2026');
    await screenshot(page, 'team-since-vancouver');
  });
});

describe('documents follow their e-mail', () => {
  it('shows an invoice as sent once its e-mail leaves, without a reload, and holds Send meanwhile', async () => {
    const invoice = await ok('POST', '/invoices/create', {
      customer_email: 'hank@example.com',
      items,
      taxes,
    });
    await page.goto(`${server.url}/#/invoices/${invoice.number}`);
    await page.getByRole('button', { name: 'Send', exact: true }).click();
    const email = page.getByTestId('document-email');
    await email.getByText('Going out now').waitFor();
    // The message is with the mail server, which has not answered yet.
    await expect.poll(() => held.length, { timeout: 30_000 }).toBe(1);
    expect(await page.getByRole('button', { name: 'Send', exact: true }).isDisabled()).toBe(true);
    await screenshot(page, 'invoice-going-out');

    held.shift()!();
    await email.getByText(/^Sent /).waitFor({ timeout: 30_000 });
    await page.locator('.page-header .badge', { hasText: 'Sent' }).waitFor();
    expect(await page.getByRole('button', { name: 'Send again' }).isDisabled()).toBe(false);
    expect((await ok('GET', `/invoices/${invoice.number}`)).status).toBe('sent');
    await screenshot(page, 'invoice-sent-without-reload');
  });

  it('opens Record payment on the balance due', async () => {
    const invoice = await ok('POST', '/invoices/create', {
      customer_email: 'hank@example.com',
      items,
      taxes,
    });
    await ok('POST', `/invoices/${invoice.number}/payment`, { amount: 20 });
    await page.goto(`${server.url}/#/invoices/${invoice.number}`);
    await page.getByRole('button', { name: 'Record payment' }).click();
    const dialog = page.getByRole('dialog');
    // 400.00 + GST 20.00, 20.00 paid.
    expect(await dialog.getByLabel('Amount').inputValue()).toBe('400.00');
    await screenshot(page, 'record-payment-balance');
    await dialog.getByRole('button', { name: 'Record payment' }).click();
    await page.getByText(`Payment recorded on ${invoice.number}`).waitFor();
    expect((await ok('GET', `/invoices/${invoice.number}`)).status).toBe('paid');
  });
});

describe('a yes on the phone', () => {
  it('records a draft quote as accepted without sending it', async () => {
    const quote = await ok('POST', '/quotes/create', { customer_email: 'hank@example.com', items, taxes });
    await page.goto(`${server.url}/#/quotes/${quote.number}`);
    await page.getByText('If they already answered, on the phone or on site').waitFor();
    await screenshot(page, 'quote-draft-answer');
    await page.getByRole('button', { name: 'Accepted' }).click();
    await page.getByText(`Quote ${quote.number} recorded as accepted`).waitFor();
    await page.getByRole('button', { name: 'Convert to job' }).waitFor();
    const stored = await ok('GET', `/quotes/${quote.number}`);
    expect(stored).toMatchObject({ status: 'accepted', sent_at: null });
    expect(await page.getByTestId('document-email').textContent()).toContain('Not sent by e-mail yet.');
    await screenshot(page, 'quote-accepted-unsent');
  });
});

describe('sales tax in words', () => {
  it('says "1 invoice", not "1 invoices"', async () => {
    const invoice = await ok('POST', '/invoices/create', {
      customer_email: 'hank@example.com',
      items,
      taxes,
      issue_date: '2026-10-05',
    });
    await ok('POST', `/invoices/${invoice.number}/mark-sent`);
    await page.goto(`${server.url}/#/sales-tax`);
    await page.getByRole('row', { name: /GST/ }).waitFor();
    const stats = page.locator('.stats');
    expect(await stats.textContent()).toContain('1 tax and rate');
    expect(await stats.textContent()).toMatch(/\d+ invoices?/);
    const counted = (await ok('GET', '/reports/sales-tax')).totals.invoices as number;
    expect(await stats.textContent()).toContain(counted === 1 ? '1 invoice' : `${counted} invoices`);
    expect(await stats.textContent()).not.toMatch(/\b1 invoices\b/);
    await screenshot(page, 'sales-tax-plurals');
  });
});

/** Saves, and checks the toast saying so is not drawn over the Save button. */
async function saveLeavesSaveUncovered(save: Locator) {
  // Earlier toasts go away by themselves too, so one may be gone by the time it would be clicked.
  const toasts = page.locator('.toast');
  for (let tries = 0; tries < 10 && (await toasts.count()) > 0; tries++) {
    await toasts
      .first()
      .getByRole('button', { name: 'Dismiss' })
      .click({ timeout: 2_000 })
      .catch(() => undefined);
  }
  // Scrolled to the end, where the owner finishes the form: Save is then at the bottom of the window.
  await page.evaluate(() => {
    for (const element of [document.scrollingElement, document.querySelector('main')]) {
      element?.scrollTo(0, element.scrollHeight);
    }
  });
  await save.click();
  const toast = page.locator('.toast', { hasText: 'E-mail settings saved; waiting e-mails go out now' });
  await toast.waitFor();
  const [toastBox, saveBox] = [await toast.boundingBox(), await save.boundingBox()];
  const overlaps =
    toastBox!.x < saveBox!.x + saveBox!.width &&
    saveBox!.x < toastBox!.x + toastBox!.width &&
    toastBox!.y < saveBox!.y + saveBox!.height &&
    saveBox!.y < toastBox!.y + toastBox!.height;
  expect(overlaps).toBe(false);
}

describe('Settings › E-mail', () => {
  it('sends a test e-mail and shows what the server said; the saved message leaves Save uncovered', async () => {
    await page.goto(`${server.url}/#/settings/business`);
    const form = page.getByRole('form', { name: 'E-mail settings' });
    await form.getByRole('button', { name: 'Send a test e-mail' }).click();
    await expect.poll(() => held.length, { timeout: 30_000 }).toBe(1);
    held.shift()!();
    const result = page.getByTestId('smtp-test-result');
    await result.getByText('Test e-mail sent to office@harbour.example.').waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toMatch(/250 .*Ok: queued as SINK1/);
    await screenshot(page, 'settings-email-test-sent');

    const save = form.getByRole('button', { name: 'Save e-mail settings' });
    await saveLeavesSaveUncovered(save);
    await screenshot(page, 'settings-email-saved');
    await page.setViewportSize({ width: 390, height: 844 });
    try {
      await saveLeavesSaveUncovered(save);
      await screenshot(page, 'settings-email-saved-phone', { fullPage: false });
    } finally {
      await page.setViewportSize({ width: 1360, height: 900 });
    }

    await form.getByLabel('Port', { exact: true }).fill('1');
    await save.click();
    await page.getByText('E-mail settings saved; waiting e-mails go out now').last().waitFor();
    await form.getByRole('button', { name: 'Send a test e-mail' }).click();
    await result.getByText('The mail server could not be reached:').waitFor({ timeout: 30_000 });
    expect(await result.textContent()).toContain('ECONNREFUSED');
    await screenshot(page, 'settings-email-test-failed');
  });
});
