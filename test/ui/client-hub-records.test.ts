import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import type { Customer } from '../../shared/schemas/customer';
import type { Invoice } from '../../shared/schemas/invoice';
import type { Job } from '../../shared/schemas/job';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { STEP_TIMEOUT_MS, screenshot } from './browser';
import { runBrowser } from './run-browser';

/**
 * The customer's own screens of the client hub on a phone (390×844, touch): invoices with how to
 * pay and "I've sent the payment", visits with "Ask to reschedule", and their places, served by an
 * install from its own database. Each answer is recorded once and the owner sees it waiting.
 */
let office: TestServer;
let shop: TestAccount;
let browser: Browser;
let home: string;
let invoice: Invoice;
let visit: Job;
/**
 * The customer's phone, one page for both flows: each opens its screen by its address, and the
 * client hub keeps nothing in the browser (no cookie, no storage) that one could leave the other.
 */
let page: Page;

beforeAll(async () => {
  office = await startTestServer();
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
  await shop.portal('PUT', '/config', {
    body: {
      client_hub_url: office.url,
      serve_client_hub: true,
      payment_instructions: 'e-Transfer to pay@sparkle.example\nor a cheque to 4 Elm St',
      business_phone: '+1 416 555 0100',
    },
  });
  const maya = (
    await shop.portal<Customer>('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'maya@example.com' },
    })
  ).body;
  await shop.portal('POST', '/properties', {
    body: {
      customer_id: maya.id,
      label: 'Home',
      street: '12 Birch Ave',
      city: 'Toronto',
      access_notes: 'Gate code 4411',
    },
  });
  invoice = (
    await shop.portal<Invoice>('POST', '/invoices/create', {
      body: {
        customer_id: maya.id,
        items: [
          { description: 'Window cleaning', quantity: 1, unit_price: 120 },
          { description: 'Screens', quantity: 4, unit_price: 5 },
        ],
      },
    })
  ).body;
  await shop.portal('POST', `/invoices/${invoice.number}/mark-sent`);
  await shop.portal('POST', `/invoices/${invoice.number}/payment`, { body: { amount: 40, method: 'cash' } });
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  visit = (
    await shop.portal<Job>('POST', '/jobs/create', {
      body: {
        customer_id: maya.id,
        title: 'Deep clean',
        scheduled_start: `${soon}T09:00:00-05:00`,
        scheduled_end: `${soon}T11:00:00-05:00`,
      },
    })
  ).body;
  const link = await office.ctx.db
    .transaction()
    .execute((tx) => issueClientLink(tx, office.ctx, shop.clientId, maya.id));
  home = `${office.url}/c/${link.token}`;
  browser = await runBrowser();
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    isMobile: true,
    hasTouch: true,
  });
  page = await context.newPage();
  page.setDefaultTimeout(STEP_TIMEOUT_MS);
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await office?.stop();
});

async function waiting(kind: string) {
  return office.ctx.db
    .selectFrom('client_actions')
    .select(['status', 'subject_id'])
    .where('account_id', '=', shop.clientId)
    .where('kind', '=', kind as never)
    .execute();
}

describe("the customer's invoices, visits and places on a phone", () => {
  it('shows an invoice with its balance and how to pay, and tells the owner once that it was paid', async () => {
    await page.goto(home);
    await screenshot(page, 'client-hub-home');
    await page.getByRole('link', { name: /Invoices/ }).click();
    await page.getByText(`Invoice ${invoice.number}`).waitFor();
    await screenshot(page, 'client-hub-invoices');
    await page.getByText(`Invoice ${invoice.number}`).click();
    await page.getByText('e-Transfer to pay@sparkle.example').waitFor();
    expect(await page.content()).toContain('$100.00');
    await page.getByText("I've sent the payment").click();
    await page.getByLabel('How and when you paid (optional)').fill('e-Transfer this morning');
    await screenshot(page, 'client-hub-invoice');
    await page.getByRole('button', { name: "Tell Sparkle Cleaning I've paid" }).click();
    await page.getByRole('status').getByText('Sent to Sparkle Cleaning.').waitFor();
    await screenshot(page, 'client-hub-invoice-paid');
    expect(await waiting('invoice.payment_notice')).toEqual([{ status: 'applied', subject_id: invoice.id }]);
  });

  it('lists visits and asks to reschedule one; shows places without the access notes', async () => {
    await page.goto(`${home}/visits`);
    await page.getByText('Deep clean').first().waitFor();
    await screenshot(page, 'client-hub-visits');
    await page.getByText('Deep clean').first().click();
    await page.getByLabel('Why, or what you need').fill('We are away that week');
    await page.getByLabel('Days and times that suit you').fill('Any morning the week after');
    await screenshot(page, 'client-hub-visit');
    await page.getByRole('button', { name: 'Send my request' }).click();
    await page.getByRole('status').getByText('Sent to Sparkle Cleaning.').waitFor();
    await screenshot(page, 'client-hub-visit-reschedule-sent');
    expect(await waiting('visit.reschedule')).toEqual([{ status: 'applied', subject_id: visit.id }]);

    await page.goto(`${home}/properties`);
    await page.getByText('12 Birch Ave').waitFor();
    expect(await page.content()).not.toContain('Gate code');
    await screenshot(page, 'client-hub-properties');

    const inbox = await shop.portal<{ waiting: Array<{ kind: string }> }>('GET', '/client-actions');
    expect(inbox.body.waiting.map((a) => a.kind).sort()).toEqual([
      'invoice.payment_notice',
      'visit.reschedule',
    ]);
  });
});
