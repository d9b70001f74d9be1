import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { issueClientLink } from '../../server/domain/client-links';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * Reviews, request work and the public booking page of the client hub, served by an install
 * (docs/client-hub.md): each form's action is recorded and applied at once, exactly once. The
 * hosted hub with every device off is test/ui/client-hub-requests.test.ts.
 */
// Monday 23 November 2026, 07:00 in Toronto (the accounts' default zone).
const clock = manualClock('2026-11-23T12:00:00Z');
let office: TestServer;
let shop: TestAccount;
let gutters: string;

const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.from('px')]);

beforeAll(async () => {
  office = await startTestServer({ clock });
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
  const config = await shop.portal('PUT', '/config', {
    body: { client_hub_url: 'https://shop.example.com/', serve_client_hub: true, ask_for_reviews: true },
  });
  expectStatus(config, 200);
  const page = await shop.portal('PUT', '/booking-page', {
    body: {
      enabled: true,
      intro: 'Book a visit',
      services: [{ name: 'Gutter cleaning', duration_minutes: 120, price: 180 }],
      hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: '08:00', to: '17:00' })),
    },
  });
  expectStatus(page, 200);
  gutters = page.body.services[0]!.id;
}, 120_000);

afterAll(async () => {
  await office?.stop();
});

async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(`${office.url}${path}`, { redirect: 'manual', ...init });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

function post(path: string, fields: Record<string, string>, origin: string | null = office.url) {
  return page(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      ...(origin ? { origin } : {}),
    },
    body: new URLSearchParams(fields).toString(),
  });
}

const formTokenOf = (html: string) => /name="form_token" value="([^"]+)"/.exec(html)![1]!;

async function customerWithLink(name: string, email: string) {
  const customer = okBody(await shop.portal('POST', '/customers', { body: { name, email } }));
  const link = await office.ctx.db
    .transaction()
    .execute((tx) => issueClientLink(tx, office.ctx, shop.clientId, customer.id));
  return { customer, token: link.token };
}

describe('a review after a visit', () => {
  it('mails the link to the visit’s review form; 5 stars are taken once, a second answer is told so', async () => {
    const { customer } = await customerWithLink('Pat Green', 'pat@example.com');
    const job = okBody(
      await shop.portal('POST', '/jobs/create', {
        body: { customer_id: customer.id, title: 'Lawn care', scheduled_start: '2026-11-23T11:00:00Z' },
      }),
    );
    expect((await shop.portal('POST', `/jobs/${job.job_number}/complete`)).status).toBe(200);
    const request = await office.ctx.db
      .selectFrom('review_requests')
      .selectAll()
      .where('job_id', '=', job.id)
      .executeTakeFirstOrThrow();
    expect(request.status).toBe('sent');
    const mail = await office.ctx.db
      .selectFrom('mail_messages')
      .select('body')
      .where('id', '=', request.message_id!)
      .executeTakeFirstOrThrow();
    const url = /https:\/\/shop\.example\.com\/c\/(\S+)\/reviews\/(rrq_\w+)/.exec(mail.body)!;
    expect(url[2]).toBe(request.id);
    const path = `/c/${url[1]}/reviews/${request.id}`;

    const form = await page(path);
    expectStatus(form, 200);
    expect(form.text).toContain('Lawn care');
    expect(form.text).not.toContain('<script');
    // Another customer's link does not open this visit.
    const other = await customerWithLink('Sam Other', 'sam@example.com');
    expect((await page(`/c/${other.token}/reviews/${request.id}`)).status).toBe(404);

    const fields = { form_token: formTokenOf(form.text), rating: '5', comment: 'Spotless, thank you' };
    expect((await post(path, { ...fields, rating: '7' })).status).toBe(400);
    expect((await post(path, fields, 'https://evil.example')).status).toBe(403);
    expect((await post(path, { ...fields, form_token: 'forged' })).status).toBe(403);
    const sent = await post(path, fields);
    expectStatus(sent, 303);
    expect(sent.headers.get('location')).toBe(path);
    expect((await page(path)).text).toContain('Thank you for your review');

    const again = await post(path, { ...fields, rating: '1' });
    expectStatus(again, 409);
    expect(again.text).toContain('You have reviewed this visit already');

    const received = await shop.events<{ rating: number; comment: string }>('review.received');
    expect(received.map((e) => e.data.object)).toMatchObject([{ rating: 5, comment: 'Spotless, thank you' }]);
    const reviews = expectOk(await shop.portal('GET', '/reviews'));
    expect(reviews.body.data).toMatchObject([{ rating: 5, source: 'client_hub' }]);
  });
});

describe('request work on the customer page', () => {
  it('takes a service, a place, preferred times, notes and a photo without scripts, once', async () => {
    const { customer, token } = await customerWithLink('Dana Lee', 'dana@example.com');
    const place = await shop.portal('POST', '/properties', {
      body: { customer_id: customer.id, label: 'Cottage', street: '12 Lake Rd', city: 'Muskoka' },
    });
    expectStatus(place, 201);
    expect((await page(`/c/${token}`)).text).toContain(`href="/c/${token}/request"`);
    const form = await page(`/c/${token}/request`);
    expectStatus(form, 200);
    expect(form.text).toContain('Gutter cleaning');
    expect(form.text).toContain('Cottage, 12 Lake Rd');
    expect(form.text).toContain('enctype="multipart/form-data"');

    const body = (date1: string) => {
      const data = new FormData();
      data.set('form_token', formTokenOf(form.text));
      data.set('service_id', gutters);
      data.set('property_id', place.body.id);
      data.set('date1', date1);
      data.set('time1', '09:00');
      data.set('notes', 'The back gutters overflow');
      data.append('photos', new Blob([PNG], { type: 'image/png' }), 'gutter.png');
      return data;
    };
    const send = (data: FormData) =>
      page(`/c/${token}/request`, { method: 'POST', headers: { origin: office.url }, body: data });
    const past = await send(body('2026-11-20'));
    expectStatus(past, 400);
    expect(past.text).toContain('has passed');
    const sent = await send(body('2026-11-25'));
    expectStatus(sent, 303);
    expect(sent.headers.get('location')).toBe(`/c/${token}/request/sent`);
    expect((await page(`/c/${token}/request/sent`)).text).toContain('has your request');

    const open = expectOk(await shop.portal('GET', '/booking-requests?status=open'));
    const mine = open.body.data.filter(
      (r: { booking: { customer: { id: string } } }) => r.booking.customer.id === customer.id,
    );
    expect(mine).toMatchObject([
      {
        origin: 'client_hub',
        service_id: gutters,
        property: { id: place.body.id },
        preferred: [{ date: '2026-11-25', time: '09:00' }],
        photos: [{ content_type: 'image/png', size_bytes: PNG.length }],
      },
    ]);
    const created = await shop.events<{ id: string }>('booking.created');
    expect(created.filter((e) => e.data.object.id === mine[0]!.id)).toHaveLength(1);
  });
});

describe('the public booking page', () => {
  it('lists services and hours, creates the customer and the request, and answers alike for a known e-mail', async () => {
    const home = await page(`/book/${shop.clientId}`);
    expectStatus(home, 200);
    expect(home.text).toContain('Gutter cleaning');
    expect(home.text).toContain('120 min');
    expect(home.text).toContain('$180.00');
    expect(home.text).toContain('08:00–17:00');
    expect(home.headers.get('content-security-policy')).toContain("script-src 'self'");

    const fields = (email: string) => ({
      service_id: gutters,
      name: 'Robin Park',
      email,
      phone: '905 555 0100',
      address: '4 Elm St',
      date1: '2026-11-26',
      time1: '10:00',
    });
    expect((await post(`/book/${shop.clientId}`, fields('robin@example.com'), null)).status).toBe(403);
    const late = await post(`/book/${shop.clientId}`, { ...fields('robin@example.com'), time1: '16:00' });
    expectStatus(late, 400);
    expect(late.text).toContain('outside the hours offered');

    const fresh = await post(`/book/${shop.clientId}`, fields('robin@example.com'));
    const known = await post(`/book/${shop.clientId}`, fields('dana@example.com'));
    expect([fresh.status, known.status]).toEqual([303, 303]);
    expect(fresh.headers.get('location')).toBe(known.headers.get('location'));
    const sentPage = await page(fresh.headers.get('location')!);
    expect(sentPage.text).toContain('has your request');

    const requests = okBody(await shop.portal('GET', '/booking-requests?status=open')).data.filter(
      (r: { origin: string }) => r.origin === 'booking_page',
    );
    expect(
      requests.map((r: { booking: { customer: { name: string } } }) => r.booking.customer.name).sort(),
    ).toEqual(['Dana Lee', 'Robin Park']);
  });

  it('is not there while the page is off, and limits requests per address', async () => {
    const other = await office.createAccount({ business: 'Quiet Co' });
    await other.portal('PUT', '/config', { body: { serve_client_hub: true } });
    expect((await page(`/book/${other.clientId}`)).status).toBe(404);
    expect((await page('/book/acct_nobody')).status).toBe(404);

    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) {
      const sent = await post(`/book/${shop.clientId}`, {
        service_id: gutters,
        name: `Visitor ${i}`,
        email: `visitor${i}@example.com`,
        date1: '2026-11-27',
        time1: '11:00',
      });
      statuses.push(sent.status);
    }
    // Two requests were sent from this address in the test above.
    expect(statuses.filter((s) => s === 303)).toHaveLength(8);
    expect(statuses.slice(8)).toEqual([429, 429, 429]);
  });
});
