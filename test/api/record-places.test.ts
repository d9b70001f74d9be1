import ICAL from 'ical.js';
import { getDocument } from 'pdfjs-dist/legacy/build/pdf.mjs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import {
  type ListPage,
  type StoredEvent,
  startTestServer,
  type TestAccount,
  type TestServer,
} from '../helpers/server';

/**
 * Places on records (issue 20): quotes, jobs, service plans and their visits, bookings and
 * invoices name the customer's place they are for, on both interfaces; the job's and the visit's
 * address come from it, and the feed, the team schedule, the PDF and the export carry it.
 */

const clock = manualClock('2026-11-23T18:00:00Z'); // Monday 23 Nov 2026, 13:00 in Toronto
let server: TestServer;
let shop: TestAccount;
let council: { id: string };
const place = {} as Record<'a' | 'b' | 'c', { id: string }>;
const line = [{ description: 'Common areas', quantity: 1, unit_price: 240 }];

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount({ business: 'Sparkle Cleaning' });
  // A customer added with an address has it as their default place from the start.
  council = okBody(
    await shop.portal('POST', '/customers', {
      body: { name: 'Harbour Strata Council', phone: '604 555 0123', address: 'PO Box 12, Vancouver' },
    }),
  );
  const add = async (label: string, street: string, access_notes: string) =>
    okBody(
      await shop.portal('POST', '/properties', {
        body: { customer_id: council.id, label, street, city: 'Vancouver', region: 'BC', access_notes },
      }),
    );
  place.a = await add('Building A', '100 Harbour St', 'Gate code 4411');
  place.b = await add('Building B', '102 Harbour St', 'Key safe 9090');
  place.c = await add('Building C', '104 Harbour St', 'Dog in unit 3');
  expect(
    (await shop.portal('PATCH', `/properties/${place.a.id}`, { body: { is_default: true } })).status,
  ).toBe(200);
});
afterAll(() => server.stop());

describe('records name their place', () => {
  it("gives the customer's first place from the address they were added with", async () => {
    const places = okBody(await shop.portal('GET', `/properties?customer_id=${council.id}`)).data;
    expect(places.map((p: any) => p.street)).toEqual([
      '104 Harbour St',
      '102 Harbour St',
      '100 Harbour St',
      'PO Box 12, Vancouver',
    ]);
    const walkIn = okBody(await shop.portal('POST', '/customers', { body: { name: 'Walk-in', phone: '5' } }));
    expect(okBody(await shop.portal('GET', `/properties?customer_id=${walkIn.id}`)).data).toEqual([]);
  });

  it("takes the customer's default place when none is named, on every kind of record", async () => {
    const by = { customer_id: council.id };
    const quote = await shop.portal('POST', '/quotes/create', { body: { ...by, items: line } });
    const invoice = await shop.portal('POST', '/invoices/create', { body: { ...by, items: line } });
    const job = expectOk(await shop.portal('POST', '/jobs/create', { body: { ...by, title: 'Windows' } }));
    const booking = await shop.portal('POST', '/bookings', {
      body: { ...by, service: 'Carpets', start: '2026-11-26T17:00:00Z', end: '2026-11-26T19:00:00Z' },
    });
    for (const created of [quote, invoice, job, booking]) {
      expectStatus(created, 201);
      expect(created.body.property_id).toBe(place.a.id);
    }
    expect(job.body.address).toBe('100 Harbour St, Vancouver, BC');
    // The same on v1, and a place named there is the one kept.
    const v1Quote = await shop.v1('POST', '/quotes', {
      body: { client_id: council.id, property_id: place.b.id, items: line },
    });
    expectStatus(v1Quote, 201);
    expect(v1Quote.body.property_id).toBe(place.b.id);
    expect(okBody(await shop.v1('GET', `/quotes/${v1Quote.body.id}`)).property_id).toBe(place.b.id);
    const v1Job = expectOk(
      await shop.v1('POST', '/jobs', {
        body: { client_id: council.id, property_id: place.c.id, title: 'Lobby' },
      }),
    );
    expect(v1Job.body).toMatchObject({ property_id: place.c.id, address: '104 Harbour St, Vancouver, BC' });
    // An address typed for one job is that job's alone: it names no place.
    const oneOff = expectOk(
      await shop.portal('POST', '/jobs/create', {
        body: { ...by, title: 'Storage unit', address: '9 Dock Rd' },
      }),
    );
    expect(oneOff.body).toMatchObject({ property_id: null, address: '9 Dock Rd' });
    // null says "no place" on purpose.
    const none = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: { ...by, property_id: null, items: line },
      }),
    );
    expect(none.body.property_id).toBeNull();
  });

  it("refuses a place that is another customer's, archived or unknown, in the contract's shape", async () => {
    const other = okBody(await shop.portal('POST', '/customers', { body: { name: 'Other', phone: '6' } }));
    const theirs = okBody(
      await shop.portal('POST', '/properties', { body: { customer_id: other.id, street: '1 Elm' } }),
    );
    const old = okBody(
      await shop.portal('POST', '/properties', { body: { customer_id: council.id, street: '1 Old Rd' } }),
    );
    await shop.portal('POST', `/properties/${old.id}/archive`);
    const tries = [
      [theirs.id, /another customer's/],
      [old.id, /archived/],
      ['prop_nope', /No place/],
    ] as const;
    for (const [propertyId, message] of tries) {
      for (const response of [
        await shop.portal('POST', '/jobs/create', {
          body: { customer_id: council.id, property_id: propertyId, title: 'x' },
        }),
        await shop.v1('POST', '/invoices', {
          body: { client_id: council.id, property_id: propertyId, items: line },
        }),
        await shop.portal('POST', '/service-plans/create', {
          body: {
            customer_id: council.id,
            property_id: propertyId,
            title: 'x',
            frequency: 'weekly',
            start_date: '2026-11-30',
            start_time: '09:00',
            end_time: '10:00',
          },
        }),
      ]) {
        expectStatus(response, 400);
        expect(response.body.error).toMatchObject({ type: 'invalid_request_error', param: 'property_id' });
        expect(response.body.error.message).toMatch(message);
      }
    }
    // Nothing half-written: no plan, job or invoice was made by the refused requests.
    expect(okBody(await shop.portal('GET', '/service-plans')).data).toEqual([]);
  });

  it('moves a draft to another place, and to the new customer’s default with its customer', async () => {
    const quote = okBody(
      await shop.portal('POST', '/quotes/create', { body: { customer_id: council.id, items: line } }),
    );
    const moved = await shop.portal('PATCH', `/quotes/${quote.number}`, {
      body: { property_id: place.c.id },
    });
    expectStatus(moved, 200);
    expect(moved.body.property_id).toBe(place.c.id);
    const ada = okBody(
      await shop.portal('POST', '/customers', {
        body: { name: 'Ada', email: 'ada@example.com', address: '1 Elm St' },
      }),
    );
    const toAda = expectOk(
      await shop.portal('PATCH', `/quotes/${quote.number}`, { body: { customer_id: ada.id } }),
    );
    const adaPlace = okBody(await shop.portal('GET', `/properties?customer_id=${ada.id}`)).data[0];
    expect(toAda.body.property_id).toBe(adaPlace!.id);
    const wrong = await shop.portal('PATCH', `/quotes/${quote.number}`, {
      body: { property_id: place.a.id },
    });
    expectStatus(wrong, 400);
    expect(wrong.body.error.param).toBe('property_id');
  });

  it("sends every visit of a plan to the plan's place, and follows the place when it is edited", async () => {
    const plan = await shop.portal('POST', '/service-plans/create', {
      body: {
        customer_id: council.id,
        property_id: place.b.id,
        title: 'Lobby and stairs',
        frequency: 'weekly',
        weekdays: ['TU', 'TH'],
        start_date: '2026-11-24',
        start_time: '09:00',
        end_time: '11:00',
        horizon_weeks: 2,
        assignees: ['Maria'],
      },
    });
    expectStatus(plan, 201);
    expect(plan.body).toMatchObject({ property_id: place.b.id, address: '102 Harbour St, Vancouver, BC' });
    const created = okBody(
      await shop.v1<ListPage<StoredEvent<{ property_id: string | null }>>>(
        'GET',
        '/events?type=service_plan.created',
      ),
    ).data;
    expect(created[0]!.data.object.property_id).toBe(place.b.id);
    const visits = okBody(await shop.portal('GET', `/service-plans/${plan.body.id}/visits?when=all`)).data;
    expect(visits.length).toBeGreaterThanOrEqual(4);
    for (const visit of visits) {
      expect(visit).toMatchObject({ property_id: place.b.id, address: '102 Harbour St, Vancouver, BC' });
    }

    // Every visit of the week is in the team schedule and the feed with its address and access notes.
    const schedule = okBody(await shop.portal('GET', '/team/schedule?from=2026-11-23&to=2026-11-29'));
    const maria = schedule.members.find((m: any) => m.member.name === 'Maria');
    const week = maria!.days.flatMap((d: any) => d.jobs);
    expect(week).toHaveLength(2);
    for (const job of week) {
      expect(job).toMatchObject({
        property_id: place.b.id,
        place_label: 'Building B',
        address: '102 Harbour St, Vancouver, BC',
        access_notes: 'Key safe 9090',
      });
    }
    const token = (await createKey(server.ctx, shop.clientId, { kind: 'feed' })).key;
    const feed = await shop.portal('GET', `/calendar.ics?token=${token}`, { key: null });
    const events = new ICAL.Component(ICAL.parse(feed.text))
      .getAllSubcomponents('vevent')
      .map((vevent) => new ICAL.Event(vevent));
    const planEvents = events.filter((e) => e.summary.startsWith('Lobby and stairs'));
    expect(planEvents.length).toBe(visits.length);
    for (const event of planEvents) {
      expect(event.location).toBe('102 Harbour St, Vancouver, BC');
      expect(event.description).toContain('Access: Key safe 9090');
    }
    // Every event of the feed has a place to go to.
    expect(events.filter((e) => !e.location).map((e) => e.summary)).toEqual([]);

    // The place is edited: open visits and the plan follow; the plan's next visits too.
    await shop.portal('PATCH', `/properties/${place.b.id}`, { body: { street: '200 Harbour St' } });
    const after = okBody(await shop.portal('GET', `/service-plans/${plan.body.id}/visits?when=all`)).data;
    for (const visit of after) expect(visit.address).toBe('200 Harbour St, Vancouver, BC');
    expect(okBody(await shop.portal('GET', `/service-plans/${plan.body.id}`)).address).toBe(
      '200 Harbour St, Vancouver, BC',
    );
    // Moving the plan to another building moves its untouched visits with it.
    const movedPlan = expectOk(
      await shop.portal('PATCH', `/service-plans/${plan.body.id}`, {
        body: { property_id: place.c.id },
      }),
    );
    expect(movedPlan.body).toMatchObject({
      property_id: place.c.id,
      address: '104 Harbour St, Vancouver, BC',
    });
    const movedVisits = okBody(
      await shop.portal('GET', `/service-plans/${plan.body.id}/visits?when=all`),
    ).data;
    for (const visit of movedVisits) expect(visit.property_id).toBe(place.c.id);
  });

  it('books at a place, and the job confirmed from the booking goes there', async () => {
    const booking = expectOk(
      await shop.v1('POST', '/bookings', {
        body: {
          client_id: council.id,
          property_id: place.c.id,
          service: 'Move-out clean',
          start: '2026-11-27T17:00:00Z',
          end: '2026-11-27T20:00:00Z',
        },
      }),
    );
    expect(booking.body.property_id).toBe(place.c.id);
    const confirmed = expectOk(
      await shop.portal('POST', `/bookings/${booking.body.id}/confirm`, { body: {} }),
    );
    const job = expectOk(await shop.v1('GET', `/jobs/${confirmed.body.job_id}`));
    expect(job.body).toMatchObject({ property_id: place.c.id, address: '104 Harbour St, Vancouver, BC' });
  });

  it('prints the service address beside the billing address, never the access notes', async () => {
    const invoice = okBody(
      await shop.portal('POST', '/invoices/create', {
        body: { customer_id: council.id, property_id: place.c.id, items: line },
      }),
    );
    const response = await fetch(`${server.url}/api/portal/${shop.clientId}/invoices/${invoice.number}/pdf`, {
      headers: { authorization: `Bearer ${shop.portalKey}` },
    });
    const pdf = await getDocument({ data: new Uint8Array(await response.arrayBuffer()) }).promise;
    const content = await (await pdf.getPage(1)).getTextContent();
    const text = content.items
      .map((item) => ('str' in item ? item.str : ''))
      .join(' ')
      .replace(/\s+/g, ' ');
    await pdf.destroy();
    expect(text).toContain('BILL TO');
    expect(text).toContain('PO Box 12, Vancouver');
    expect(text).toContain('SERVICE ADDRESS');
    expect(text).toContain('Building C');
    expect(text).toContain('104 Harbour St, Vancouver, BC');
    expect(text).not.toContain('Dog in unit 3');
  });

  it('exports every record with its place, and the places themselves', async () => {
    const response = await fetch(`${server.url}/api/portal/${shop.clientId}/export?format=json`, {
      headers: { authorization: `Bearer ${shop.portalKey}` },
    });
    const data = await response.json();
    for (const kind of ['quotes', 'invoices', 'jobs', 'bookings', 'service_plans']) {
      expect(data[kind].length, kind).toBeGreaterThan(0);
      expect(
        data[kind].some((r: any) => [place.a.id, place.b.id, place.c.id].includes(r.property_id)),
        kind,
      ).toBe(true);
    }
    expect(data.properties.find((p: any) => p.id === place.a.id)).toMatchObject({
      label: 'Building A',
      access_notes: 'Gate code 4411',
    });
  });
});
