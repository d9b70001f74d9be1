import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { requestBooking, requestBookingFromPage } from '../../server/domain/booking-requests';
import { manualClock } from '../../server/lib/clock';
import { newId } from '../../server/lib/ids';
import { MAX_PHOTO_BYTES } from '../../shared/schemas/booking-request';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

// Monday 23 November 2026, 07:00 in Toronto (the accounts' default zone).
const clock = manualClock('2026-11-23T12:00:00Z');
let server: TestServer;
let shop: TestAccount;
let customer: { id: string; name: string };
let gutters: string;
let windows: string;

const PNG = Buffer.concat([
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
  Buffer.from('pixels'),
]);
const png = (bytes: Buffer = PNG) => ({ content_type: 'image/png' as const, data: bytes.toString('base64') });
const bookingCount = async (accountId: string) =>
  Number(
    (
      await server.ctx.db
        .selectFrom('bookings')
        .select((eb) => eb.fn.countAll().as('n'))
        .where('account_id', '=', accountId)
        .executeTakeFirstOrThrow()
    ).n,
  );

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
  await shop.portal('PUT', '/config', { body: { business_email: 'owner@sparkle.test', owner_alerts: true } });
  customer = okBody(
    await shop.portal('POST', '/customers', { body: { name: 'Dana Lee', email: 'dana@example.com' } }),
  );
  const page = await shop.portal('PUT', '/booking-page', {
    body: {
      enabled: true,
      intro: 'Book a visit',
      services: [
        { name: 'Gutter cleaning', duration_minutes: 120, price: 180 },
        { name: 'Window washing', duration_minutes: 90, price: null },
      ],
      hours: [1, 2, 3, 4, 5].map((weekday) => ({ weekday, from: '08:00', to: '17:00' })),
    },
  });
  expectStatus(page, 200);
  [gutters, windows] = page.body.services.map((s) => s.id) as [string, string];
});
afterAll(() => server.stop());

describe('booking page settings', () => {
  it('keeps service ids, sorts hours, and refuses what cannot be offered', async () => {
    const current = okBody(await shop.portal('GET', '/booking-page'));
    expect(current.services.map((s: any) => [s.name, s.duration_minutes, s.price])).toEqual([
      ['Gutter cleaning', 120, 180],
      ['Window washing', 90, null],
    ]);
    expect(current.services[0]!.id).toMatch(/^svc_/);
    expect(okBody(await shop.portal('GET', '/config')).booking_page).toEqual(current);

    const bad = [
      [{ ...current, services: [] }, 'services'],
      [{ ...current, hours: [{ weekday: 1, from: '09:00', to: '08:00' }] }, 'hours[0].to'],
      [
        {
          ...current,
          hours: [
            { weekday: 2, from: '08:00', to: '12:00' },
            { weekday: 2, from: '11:00', to: '15:00' },
          ],
        },
        'hours[1]',
      ],
      [{ ...current, services: [{ id: 'svc_unknown1', name: 'X', duration_minutes: 30 }] }, 'services[0].id'],
      [{ ...current, hours: [{ weekday: 1, from: '8am', to: '17:00' }] }, 'hours[0].from'],
    ] as const;
    for (const [body, param] of bad) {
      const refused = expectError(await shop.portal('PUT', '/booking-page', { body }));
      expect(refused.status, param).toBe(400);
      expect(refused.body.error).toMatchObject({ code: 'validation_failed', param });
    }
    // The page is only changed through its own route, never by a config update.
    const viaConfig = await shop.portal('PUT', '/config', { body: { booking_page: current } });
    expectStatus(viaConfig, 400);
    expect(okBody(await shop.portal('GET', '/booking-page'))).toEqual(current);
  });

  it('is read with the portal key and changed only with the Platform plan, never by other accounts', async () => {
    const basic = await server.createAccount({ business: 'Basic Co', plan: 'basic' });
    expect((await basic.portal('GET', '/booking-page')).status).toBe(200);
    const put = await basic.portal('PUT', '/booking-page', {
      body: { enabled: false, services: [], hours: [] },
    });
    expectStatus(put, 403);
    expect(put.body.error.code).toBe('plan_required');
    const other = await server.createAccount({ business: 'Other Co' });
    expect((await shop.portal('GET', '/booking-page', { key: other.portalKey })).status).toBe(403);
    expect((await shop.portal('GET', '/booking-page', { key: shop.v1Key })).status).toBe(403);
    expect((await shop.portal('GET', '/booking-page', { key: null })).status).toBe(401);
    expect((await shop.v1('GET', '/booking-page')).status).toBe(404);
  });
});

describe('booking requests from the client hub', () => {
  it('records a request once per id, with its photos, event and alert', async () => {
    const id = newId('bkg', clock.now().getTime());
    const input = {
      customer_id: customer.id,
      service_id: gutters,
      preferred: [
        { date: '2026-11-25', time: '09:00' },
        { date: '2026-11-26', time: '13:00' },
      ],
      notes: 'Downspout at the back is blocked',
      photos: [png()],
    };
    const first = await requestBooking(server.ctx, shop.clientId, input, { id });
    const again = await requestBooking(server.ctx, shop.clientId, { ...input, notes: 'changed' }, { id });
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      id,
      object: 'booking_request',
      status: 'open',
      origin: 'client_hub',
      booking: {
        status: 'pending',
        service: 'Gutter cleaning',
        start: '2026-11-25T14:00:00Z',
        end: '2026-11-25T16:00:00Z',
        source: 'client_hub',
        notes: 'Downspout at the back is blocked',
      },
      photos: [{ content_type: 'image/png', size_bytes: PNG.length }],
    });
    const created = (await shop.events('booking.created')).filter((e: any) => e.data.object.id === id);
    expect(created).toHaveLength(1);
    const alerts = expectOk(await shop.portal('GET', '/messages?kind=owner_alert'));
    expect(alerts.body.data.filter((m: any) => m.subject.includes('Gutter cleaning'))).toHaveLength(1);
    expect(alerts.body.data[0]).toMatchObject({ kind: 'owner_alert', to: 'owner@sparkle.test' });

    const photo = await shop.portal('GET', `/booking-requests/${id}/photos/${first.photos[0]!.id}`);
    expectStatus(photo, 200);
    expect(photo.headers.get('content-type')).toBe('image/png');
    expect(photo.text).toContain('pixels');
    const listed = expectOk(await shop.portal('GET', '/booking-requests?status=open'));
    expect(listed.body.data.map((r: any) => r.id)).toContain(id);
  });

  it('refuses bad requests with a clear error and writes nothing', async () => {
    const before = await bookingCount(shop.clientId);
    const base = {
      customer_id: customer.id,
      service_id: gutters,
      preferred: [{ date: '2026-11-25', time: '09:00' }],
    };
    const tooBig = Buffer.concat([PNG, Buffer.alloc(MAX_PHOTO_BYTES + 1024 * 1024)]);
    const other = okBody(
      await shop.portal('POST', '/customers', { body: { name: 'Other', email: 'o@example.com' } }),
    );
    const place = okBody(
      await shop.portal('POST', '/properties', { body: { customer_id: other.id, street: '1 Elm' } }),
    );
    const cases = [
      [
        { ...base, photos: [png(), png(tooBig)] },
        'photos[1]',
        /^Photo 2 is too large \(about 3 MB\); each photo may be at most 2 MB$/,
      ],
      [
        { ...base, photos: [{ content_type: 'image/jpeg', data: PNG.toString('base64') }] },
        'photos[0]',
        /not a JPEG/,
      ],
      [{ ...base, preferred: [{ date: '2026-11-22', time: '09:00' }] }, 'preferred[0]', /has passed/],
      [{ ...base, preferred: [{ date: '2026-11-28', time: '09:00' }] }, 'preferred[0]', /outside the hours/],
      [{ ...base, preferred: [{ date: '2026-11-25', time: '16:00' }] }, 'preferred[0]', /outside the hours/],
      [{ ...base, property_id: place.id }, 'property_id', /No place/],
      [{ ...base, service_id: 'svc_nope' }, 'service_id', /No service/],
    ] as const;
    for (const [input, param, message] of cases) {
      const attempt = requestBooking(server.ctx, shop.clientId, input as any, { id: newId('bkg') });
      await expect(attempt, param).rejects.toMatchObject({
        status: 400,
        options: { param },
        message: expect.stringMatching(message),
      });
    }
    await expect(requestBooking(server.ctx, shop.clientId, base, { id: 'bkg_short' })).rejects.toMatchObject({
      status: 400,
      options: { param: 'id' },
    });
    expect(await bookingCount(shop.clientId)).toBe(before);
  });
});

describe('the owner answers requests', () => {
  const ask = async (preferred = [{ date: '2026-11-27', time: '10:00' }], extra: object = {}) =>
    requestBooking(
      server.ctx,
      shop.clientId,
      { customer_id: customer.id, service_id: windows, preferred, ...extra },
      { id: newId('bkg', clock.now().getTime()) },
    );

  it('confirms at another time, once', async () => {
    const request = await ask();
    const confirmed = await shop.portal('POST', `/booking-requests/${request.id}/confirm`, {
      body: { start: '2026-11-27T16:00:00Z', end: '2026-11-27T17:30:00Z' },
    });
    expectStatus(confirmed, 200);
    expect(confirmed.body).toMatchObject({
      status: 'confirmed',
      booking: { status: 'confirmed', start: '2026-11-27T16:00:00Z', job_id: null },
    });
    const twice = await shop.portal('POST', `/booking-requests/${request.id}/decline`, {
      body: { message: 'no' },
    });
    expectStatus(twice, 409);
    expect(twice.body.error.message).toBe('This request was confirmed already');
  });

  it('turns one into a job at the customer’s place', async () => {
    const place = okBody(
      await shop.portal('POST', '/properties', {
        body: { customer_id: customer.id, street: '9 Bay Rd', city: 'Oakville' },
      }),
    );
    const request = await ask(undefined, { property_id: place.id });
    const converted = expectOk(
      await shop.portal('POST', `/booking-requests/${request.id}/convert-to-job`, {
        body: { assignees: ['Sam'] },
      }),
    );
    expect(converted.body).toMatchObject({ status: 'converted_to_job', booking: { status: 'confirmed' } });
    const job = okBody(await shop.portal('GET', `/jobs/${converted.body.booking.job_id}`));
    expect(job).toMatchObject({ status: 'scheduled', address: '9 Bay Rd, Oakville', assignees: ['Sam'] });
    expect(job.scheduled_start).toBe('2026-11-27T15:00:00Z');
  });

  it('turns one into a draft quote at the page’s price', async () => {
    const request = await requestBooking(
      server.ctx,
      shop.clientId,
      { customer_id: customer.id, service_id: gutters, preferred: [{ date: '2026-11-30', time: '08:00' }] },
      { id: newId('bkg', clock.now().getTime()) },
    );
    const converted = expectOk(await shop.portal('POST', `/booking-requests/${request.id}/convert-to-quote`));
    expect(converted.body).toMatchObject({ status: 'converted_to_quote', booking: { status: 'cancelled' } });
    const quote = okBody(await shop.portal('GET', `/quotes/${converted.body.quote_id}`));
    expect(quote).toMatchObject({ status: 'draft', total: 180, customer: { id: customer.id } });
    expect(quote.items[0]!.description).toBe('Gutter cleaning');
  });

  it('declines with a message e-mailed to the customer', async () => {
    const request = await ask();
    expect((await shop.portal('POST', `/booking-requests/${request.id}/decline`, { body: {} })).status).toBe(
      400,
    );
    const declined = expectOk(
      await shop.portal('POST', `/booking-requests/${request.id}/decline`, {
        body: { message: 'We are fully booked that week, sorry.' },
      }),
    );
    expect(declined.body).toMatchObject({
      status: 'declined',
      decline_message: 'We are fully booked that week, sorry.',
      booking: { status: 'cancelled' },
    });
    const replies = okBody(await shop.portal('GET', '/messages?kind=booking_reply')).data;
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatchObject({ to: 'dana@example.com', subject: 'Your request for Window washing' });
    expect(replies[0]!.body).toContain('We are fully booked that week, sorry.');
  });

  it('lets only this account’s owner answer, with the Platform plan', async () => {
    const request = await ask();
    const other = await server.createAccount({ business: 'Other Shop' });
    expect((await other.portal('GET', `/booking-requests/${request.id}`)).status).toBe(404);
    expect((await other.portal('POST', `/booking-requests/${request.id}/confirm`)).status).toBe(404);
    const wrongKey = await shop.portal('POST', `/booking-requests/${request.id}/confirm`, {
      key: other.portalKey,
    });
    expectStatus(wrongKey, 403);
    expect(
      (await shop.portal('POST', `/booking-requests/${request.id}/confirm`, { key: shop.v1Key })).status,
    ).toBe(403);
    expect((await shop.portal('GET', '/booking-requests', { key: null })).status).toBe(401);
    expect((await shop.v1('GET', '/booking-requests')).status).toBe(404);
    const basic = await server.createAccount({ business: 'Basic Shop', plan: 'basic' });
    expect((await basic.portal('GET', '/booking-requests')).status).toBe(200);
    const refused = await basic.portal('POST', `/booking-requests/${request.id}/convert-to-quote`);
    expectStatus(refused, 403);
    expect(okBody(await shop.portal('GET', `/booking-requests/${request.id}`)).status).toBe('open');
    const cookie = await shop.signIn();
    const viaUi = await server.request(
      'POST',
      `/api/portal/${shop.clientId}/booking-requests/${request.id}/confirm`,
      {
        headers: { cookie, origin: server.url, 'content-type': 'application/json' },
        rawBody: '{}',
      },
    );
    expectStatus(viaUi, 200);
  });
});

describe('requests from the public booking page', () => {
  it('matches or creates the customer without saying which, once per id', async () => {
    const before = okBody(await shop.portal('GET', '/customers?limit=100')).data.length;
    const asNew = {
      name: 'Robin New',
      email: 'robin@example.com',
      phone: '905 555 0100',
      service_id: gutters,
      preferred: [{ date: '2026-11-24', time: '13:00' }],
    };
    const newId1 = newId('bkg', clock.now().getTime());
    const first = await requestBookingFromPage(server.ctx, shop.clientId, asNew, { id: newId1 });
    expect(await requestBookingFromPage(server.ctx, shop.clientId, asNew, { id: newId1 })).toEqual(first);
    const asKnown = { ...asNew, name: 'Not Dana', email: 'DANA@example.com' };
    const second = await requestBookingFromPage(server.ctx, shop.clientId, asKnown, { id: newId('bkg') });
    expect(Object.keys(second)).toEqual(Object.keys(first));
    expect(second.object).toBe('booking_request_receipt');

    const customers = okBody(await shop.portal('GET', '/customers?limit=100')).data;
    expect(customers.length).toBe(before + 1);
    expect(customers.find((c: any) => c.id === customer.id)!.name).toBe('Dana Lee');
    const request = okBody(await shop.portal('GET', `/booking-requests/${second.id}`));
    expect(request).toMatchObject({
      origin: 'booking_page',
      booking: { customer: { id: customer.id }, source: 'booking_page' },
      contact: { name: 'Not Dana', email: 'DANA@example.com' },
    });
    const robin = okBody(await shop.portal('GET', `/booking-requests/${first.id}`)).booking.customer;
    expect(robin).toMatchObject({ name: 'Robin New', email: 'robin@example.com' });
    expect(
      (await shop.events('booking.created')).filter((e: any) => e.data.object.id === newId1),
    ).toHaveLength(1);
  });

  it('takes nothing while the page is off', async () => {
    const page = okBody(await shop.portal('GET', '/booking-page'));
    await shop.portal('PUT', '/booking-page', { body: { ...page, enabled: false } });
    const attempt = requestBookingFromPage(
      server.ctx,
      shop.clientId,
      {
        name: 'X',
        email: 'x@example.com',
        service_id: gutters,
        preferred: [{ date: '2026-11-24', time: '13:00' }],
      },
      { id: newId('bkg') },
    );
    await expect(attempt).rejects.toMatchObject({
      status: 409,
      message: 'This business is not taking bookings online.',
    });
    await shop.portal('PUT', '/booking-page', { body: page });
  });
});
