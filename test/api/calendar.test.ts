import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildVtimezone } from '../../server/documents/vtimezone';
import { createKey } from '../../server/domain/api-keys';
import { manualClock } from '../../server/lib/clock';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let feedToken: string;
const ids: Record<string, string> = {};

async function job(body: Record<string, unknown>) {
  const created = await shop.portal('POST', '/jobs/create', { body });
  expect(created.status).toBe(201);
  return created.body;
}

async function booking(start: string, end: string, email: string) {
  const created = await shop.portal('POST', '/bookings', {
    body: { customer_email: email, service: 'Carpet clean', start, end },
  });
  expect(created.status).toBe(201);
  return created.body;
}

beforeAll(async () => {
  server = await startTestServer({ clock: manualClock('2026-11-18T15:00:00Z') });
  shop = await server.createAccount({ business: 'Sparkle Cleaning' });
  feedToken = (await createKey(server.ctx, shop.clientId, { kind: 'feed' })).key;

  const ada = { customer_email: 'ada@example.com', customer_name: 'Ada Lovelace' };
  ids.scheduled = (
    await job({
      ...ada,
      title: 'Deep clean',
      scheduled_start: '2026-11-20T14:00:00Z',
      scheduled_end: '2026-11-20T17:00:00Z',
      assignees: ['Sam', 'Alex'],
      address: '1 Main St, Toronto',
      price: 180.5,
    })
  ).id;
  ids.summer = (await job({ ...ada, title: 'Summer windows', scheduled_start: '2027-06-01T13:00:00Z' })).id;
  ids.completed = (await job({ ...ada, title: 'Oven', scheduled_start: '2026-11-10T15:00:00Z' })).id;
  await shop.portal('POST', `/jobs/${ids.completed}/complete`);
  await job({ ...ada, title: 'Someday' });
  const cancelled = await job({ ...ada, title: 'Called off', scheduled_start: '2026-11-22T15:00:00Z' });
  await shop.portal('POST', `/jobs/${cancelled.id}/cancel`);
  await job({ ...ada, title: 'Long ago', scheduled_start: '2026-01-05T15:00:00Z' });

  const plain = await booking('2026-11-23T15:00:00Z', '2026-11-23T16:00:00Z', 'grace@example.com');
  await shop.portal('POST', `/bookings/${plain.id}/confirm`, { body: { create_job: false } });
  ids.booking = plain.id;
  const withJob = await booking('2026-11-24T15:00:00Z', '2026-11-24T16:00:00Z', 'linus@example.com');
  ids.bookedJob = (await shop.portal('POST', `/bookings/${withJob.id}/confirm`, { body: {} })).body.job_id;
  await booking('2026-11-25T15:00:00Z', '2026-11-25T16:00:00Z', 'pending@example.com');
});
afterAll(() => server.stop());

function parse(text: string) {
  const calendar = new ICAL.Component(ICAL.parse(text));
  for (const zone of calendar.getAllSubcomponents('vtimezone')) ICAL.TimezoneService.register(zone);
  const events = calendar.getAllSubcomponents('vevent').map((vevent) => new ICAL.Event(vevent));
  return { calendar, events };
}

const feed = (query = `?token=${feedToken}`) => shop.portal('GET', `/calendar.ics${query}`, { key: null });

describe('portal calendar feed', () => {
  it('serves one VEVENT per live scheduled job and confirmed booking, named after the business', async () => {
    const response = await feed();
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toBe('text/calendar; charset=utf-8');
    const { calendar, events } = parse(response.text);
    expect(calendar.getFirstPropertyValue('x-wr-calname')).toBe('Sparkle Cleaning');
    expect(calendar.getFirstPropertyValue('x-wr-timezone')).toBe('America/Toronto');
    expect(calendar.getFirstPropertyValue('version')).toBe('2.0');
    expect(events.map((e) => e.uid).sort()).toEqual(
      [ids.scheduled, ids.summer, ids.completed, ids.booking, ids.bookedJob]
        .map((id) => `${id}@shopdesk`)
        .sort(),
    );

    const deepClean = events.find((e) => e.uid === `${ids.scheduled}@shopdesk`)!;
    expect(deepClean.summary).toBe('Deep clean — Ada Lovelace');
    expect(deepClean.location).toBe('1 Main St, Toronto');
    expect(deepClean.description).toContain('J-0001');
    expect(deepClean.description).toContain('Alex, Sam');
    expect(deepClean.description).toContain('180.50');

    const carpet = events.find((e) => e.uid === `${ids.booking}@shopdesk`)!;
    expect(carpet.summary).toBe('Carpet clean — grace');
  });

  it("writes times in the account's time zone that convert back to the stored instants", async () => {
    const { events } = parse((await feed()).text);
    const deepClean = events.find((e) => e.uid === `${ids.scheduled}@shopdesk`)!;
    expect(deepClean.startDate.zone?.tzid).toBe('America/Toronto');
    expect(deepClean.component.getFirstProperty('dtstart')!.getParameter('tzid')).toBe('America/Toronto');
    expect([deepClean.startDate.hour, deepClean.startDate.minute]).toEqual([9, 0]);
    expect(deepClean.startDate.toJSDate().toISOString()).toBe('2026-11-20T14:00:00.000Z');
    expect(deepClean.endDate.toJSDate().toISOString()).toBe('2026-11-20T17:00:00.000Z');

    // Summer time (EDT, UTC-4) is resolved by the feed's VTIMEZONE; a job without an end lasts an hour.
    const summer = events.find((e) => e.uid === `${ids.summer}@shopdesk`)!;
    expect(summer.startDate.hour).toBe(9);
    expect(summer.startDate.toJSDate().toISOString()).toBe('2027-06-01T13:00:00.000Z');
    expect(summer.endDate.toJSDate().toISOString()).toBe('2027-06-01T14:00:00.000Z');
  });

  it('keeps UIDs stable across fetches', async () => {
    const first = parse((await feed()).text).events.map((e) => e.uid);
    await shop.portal('PATCH', `/jobs/${ids.scheduled}`, { body: { title: 'Deep clean (2 floors)' } });
    const second = parse((await feed()).text);
    expect(second.events.map((e) => e.uid)).toEqual(first);
    expect(second.events.find((e) => e.uid === `${ids.scheduled}@shopdesk`)!.summary).toBe(
      'Deep clean (2 floors) — Ada Lovelace',
    );
  });

  it('accepts the portal key too, and refuses a wrong, revoked or non-feed token with 401', async () => {
    expect((await shop.portal('GET', '/calendar.ics')).status).toBe(200);
    expect((await feed('?token=sd_feed_wrongwrongwrongwrongwrongwrong12')).status).toBe(401);
    expect((await feed(`?token=${shop.v1Key}`)).status).toBe(401);
    expect((await feed('')).status).toBe(401);

    const replacement = (await createKey(server.ctx, shop.clientId, { kind: 'feed' })).key;
    const revoked = await feed();
    expect(revoked.status).toBe(401);
    expect(revoked.body.error.code).toBe('unauthorized');
    expect((await feed(`?token=${replacement}`)).status).toBe(200);
    feedToken = replacement;
  });

  it('does not let the feed token stand in for the portal key elsewhere', async () => {
    const asBearer = await shop.portal('GET', '/jobs', { key: feedToken });
    expect(asBearer.status).toBe(403);
    expect(asBearer.body.error.code).toBe('forbidden');
    const asQuery = await shop.portal('GET', `/jobs?token=${feedToken}`, { key: null });
    expect(asQuery.status).toBe(401);
  });

  it("refuses another account's feed token", async () => {
    const other = await server.createAccount({ business: 'Other Co' });
    const otherToken = (await createKey(server.ctx, other.clientId, { kind: 'feed' })).key;
    const refused = await feed(`?token=${otherToken}`);
    expect(refused.status).toBe(403);
  });
});

describe('VTIMEZONE', () => {
  const year2026 = [Date.parse('2026-01-01T00:00:00Z'), Date.parse('2027-01-01T00:00:00Z')] as const;

  it('has one observance per offset change, starting at local wall time', () => {
    const zone = new ICAL.Component(
      ICAL.parse(`BEGIN:VCALENDAR\r\n${buildVtimezone('Europe/Berlin', ...year2026)}\r\nEND:VCALENDAR`),
    ).getFirstSubcomponent('vtimezone')!;
    const observances = zone
      .getAllSubcomponents()
      .map((c) => [
        c.name,
        String(c.getFirstPropertyValue('dtstart')),
        c.getFirstProperty('tzoffsetto')!.toICALString(),
      ]);
    expect(observances).toEqual([
      ['standard', '2026-01-01T01:00:00', 'TZOFFSETTO:+0100'],
      ['daylight', '2026-03-29T02:00:00', 'TZOFFSETTO:+0200'],
      ['standard', '2026-10-25T03:00:00', 'TZOFFSETTO:+0100'],
    ]);
  });

  it('describes a zone without DST with a single observance', () => {
    const text = buildVtimezone('Asia/Kolkata', ...year2026);
    expect(text.match(/BEGIN:(STANDARD|DAYLIGHT)/g)).toEqual(['BEGIN:STANDARD']);
    expect(text).toContain('TZOFFSETTO:+0530');
  });
});
