import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * The client hub's invoices, visits and properties, served by an install from its own database
 * (docs/client-hub.md): what the customer sees, the payment notice and the reschedule request
 * (recorded and applied at once, once), refusals, and another customer's records through a valid link.
 */
let office: TestServer;
let shop: TestAccount;
let maya: { token: string; customerId: string };
let omarInvoice: string;
let invoice: { id: string; number: string };
let visit: { id: string };
let pastVisit: string;

async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(`${office.url}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function post(path: string, fields: Record<string, string>, origin: string | null = office.url) {
  return page(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...(origin ? { origin } : {}) },
    body: new URLSearchParams(fields).toString(),
  });
}

const formToken = (html: string) => /name="form_token" value="([^"]+)"/.exec(html)![1]!;

async function actions(kind: string) {
  return office.ctx.db
    .selectFrom('client_actions')
    .select(['status', 'outcome'])
    .where('account_id', '=', shop.clientId)
    .where('kind', '=', kind as never)
    .execute();
}

beforeAll(async () => {
  office = await startTestServer();
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
  await shop.portal('PUT', '/config', {
    body: {
      client_hub_url: 'https://shop.example.com',
      serve_client_hub: true,
      payment_instructions: 'e-Transfer to pay@sparkle.example',
      business_email: 'owner@sparkle.example',
      owner_alerts: true,
    },
  });
  const customer = (name: string, email: string) =>
    shop.portal('POST', '/customers', { body: { name, email } }).then(okBody);
  const mayaRow = await customer('Maya Chen', 'maya@example.com');
  const omar = await customer('Omar Haddad', 'omar@example.com');
  await shop.portal('POST', '/properties', {
    body: {
      customer_id: mayaRow.id,
      label: 'Home',
      street: '12 Birch Ave',
      city: 'Toronto',
      access_notes: 'Gate code 4411',
    },
  });
  const bill = async (customerId: string) => {
    const created = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_id: customerId,
          items: [{ description: 'Window cleaning', quantity: 1, unit_price: 120 }],
        },
      }),
    );
    await shop.portal('POST', `/invoices/${created.body.number}/mark-sent`);
    return created.body;
  };
  invoice = await bill(mayaRow.id);
  omarInvoice = (await bill(omar.id)).id;
  await shop.portal('POST', `/invoices/${invoice.number}/payment`, {
    body: { amount: 20, method: 'cash', paid_at: new Date().toISOString() },
  });
  const job = (start: string, end: string) =>
    shop
      .portal('POST', '/jobs/create', {
        body: {
          customer_id: mayaRow.id,
          title: 'Deep clean',
          scheduled_start: start,
          scheduled_end: end,
          address: '12 Birch Ave',
        },
      })
      .then(okBody);
  const soon = new Date(Date.now() + 3 * 86_400_000).toISOString().slice(0, 10);
  visit = await job(`${soon}T09:00:00-05:00`, `${soon}T11:00:00-05:00`);
  pastVisit = (await job('2025-03-02T09:00:00-05:00', '2025-03-02T10:00:00-05:00')).id;
  const link = await office.ctx.db
    .transaction()
    .execute((tx) => issueClientLink(tx, office.ctx, shop.clientId, mayaRow.id));
  maya = { token: link.token, customerId: mayaRow.id };
}, 120_000);

afterAll(async () => {
  await office?.stop();
});

describe('client hub records on an install', () => {
  it('shows invoices with balance, payments and how to pay, and the PDF', async () => {
    const list = await page(`/c/${maya.token}/invoices`);
    expectStatus(list, 200);
    expect(list.text).toContain(`Invoice ${invoice.number}`);
    expect(list.text).toContain('Partly paid');
    const shown = await page(`/c/${maya.token}/invoices/${invoice.id}`);
    expect(shown.text).toContain('$120.00');
    expect(shown.text).toContain('$100.00');
    expect(shown.text).toContain('e-Transfer to pay@sparkle.example');
    const pdf = await fetch(`${office.url}/c/${maya.token}/invoices/${invoice.id}/pdf`);
    expectStatus(pdf, 200);
    expect(pdf.headers.get('content-type')).toBe('application/pdf');
    expect(
      Buffer.from(await pdf.arrayBuffer())
        .subarray(0, 5)
        .toString(),
    ).toBe('%PDF-');
  });

  it('shows visits and properties, never access notes', async () => {
    const visits = await page(`/c/${maya.token}/visits`);
    expect(visits.text).toContain('Upcoming visits');
    expect(visits.text).toContain('12 Birch Ave');
    const places = await page(`/c/${maya.token}/properties`);
    expect(places.text).toContain('12 Birch Ave');
    for (const text of [visits.text, places.text, (await page(`/c/${maya.token}`)).text])
      expect(text).not.toContain('4411');
  });

  it("records a payment notice once, e-mails the owner once, and refuses another's invoice", async () => {
    const shown = await page(`/c/${maya.token}/invoices/${invoice.id}`);
    const fields = { form_token: formToken(shown.text), note: 'Sent by e-Transfer today' };
    expect((await post(`/c/${maya.token}/invoices/${invoice.id}/payment-notice`, fields)).status).toBe(303);
    expect((await post(`/c/${maya.token}/invoices/${invoice.id}/payment-notice`, fields)).status).toBe(303);
    expect(await actions('invoice.payment_notice')).toEqual([
      { status: 'applied', outcome: 'Passed on: they will record your payment once it arrives.' },
    ]);
    const alerts = await office.ctx.db
      .selectFrom('mail_messages')
      .select('subject')
      .where('account_id', '=', shop.clientId)
      .where('to_address', '=', 'owner@sparkle.example')
      .execute();
    expect(alerts).toEqual([{ subject: `Maya Chen says they paid invoice ${invoice.number}` }]);
    expect((await page(`/c/${maya.token}/invoices/${invoice.id}`)).text).toContain(
      'Sent to Sparkle Cleaning',
    );
    // Omar's invoice through Maya's valid link: the same not-found page, nothing recorded.
    expect((await page(`/c/${maya.token}/invoices/${omarInvoice}`)).status).toBe(404);
    const stolen = await post(`/c/${maya.token}/invoices/${omarInvoice}/payment-notice`, fields);
    expectStatus(stolen, 404);
    expect(await actions('invoice.payment_notice')).toHaveLength(1);
  });

  it('records a reschedule request, refuses forms without token or from another origin', async () => {
    const shown = await page(`/c/${maya.token}/visits/${visit.id}`);
    expect(shown.text).toContain('Ask to reschedule');
    const fields = {
      form_token: formToken(shown.text),
      message: 'Away that week',
      preferred: 'Mornings next week',
    };
    expect(
      (await post(`/c/${maya.token}/visits/${visit.id}/reschedule`, { ...fields, form_token: 'x' })).status,
    ).toBe(403);
    expect(
      (await post(`/c/${maya.token}/visits/${visit.id}/reschedule`, fields, 'https://evil.example')).status,
    ).toBe(403);
    const empty = await post(`/c/${maya.token}/visits/${visit.id}/reschedule`, { ...fields, message: '' });
    expectStatus(empty, 400);
    expect(empty.text).toContain('message');
    expect(await actions('visit.reschedule')).toHaveLength(0);
    expect((await post(`/c/${maya.token}/visits/${visit.id}/reschedule`, fields)).status).toBe(303);
    expect(await actions('visit.reschedule')).toEqual([
      { status: 'applied', outcome: 'Your request was passed on.' },
    ]);
    expect((await page(`/c/${maya.token}/visits/${visit.id}`)).text).toContain('Sent to Sparkle Cleaning');
    // A past visit offers no form.
    expect((await page(`/c/${maya.token}/visits/${pastVisit}`)).text).not.toContain('Ask to reschedule');
  });

  it('refuses cleanly what can no longer be done', async () => {
    const other = expectOk(
      await shop.portal('POST', '/jobs/create', {
        body: {
          customer_id: maya.customerId,
          title: 'Gutter clean',
          scheduled_start: new Date(Date.now() + 5 * 86_400_000).toISOString(),
        },
      }),
    );
    const shown = await page(`/c/${maya.token}/visits/${other.body.id}`);
    expect((await shop.portal('POST', `/jobs/${other.body.id}/start`)).status).toBe(200);
    const fields = { form_token: formToken(shown.text), message: 'Another day please' };
    expect((await post(`/c/${maya.token}/visits/${other.body.id}/reschedule`, fields)).status).toBe(303);
    const refused = (await actions('visit.reschedule')).filter((a) => a.status === 'refused');
    expect(refused).toEqual([
      { status: 'refused', outcome: 'This visit has already started, so it can no longer be moved.' },
    ]);
    expect((await page(`/c/${maya.token}/visits/${other.body.id}`)).text).toContain(
      'Not done: This visit has already started',
    );
  });
});
