import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { manualClock } from '../../server/lib/clock';
import { zonedToUtc } from '../../shared/time-zone';
import { expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let feedToken: string;
const ids: Record<string, string> = {};

async function job(body: Record<string, unknown>) {
  const created = await shop.portal('POST', '/jobs/create', { body });
  expectStatus(created, 201);
  return created.body;
}

async function booking(start: string, end: string, email: string) {
  const created = await shop.portal('POST', '/bookings', {
    body: { customer_email: email, service: 'Carpet clean', start, end },
  });
  expectStatus(created, 201);
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
  ids.bookedJob = okBody(await shop.portal('POST', `/bookings/${withJob.id}/confirm`, { body: {} })).job_id!;
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
    expectStatus(response, 200);
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

  it('writes UTC instants, so no calendar app applies zone rules of its own to them', async () => {
    const text = (await feed()).text;
    expect(text).not.toContain('TZID');
    expect(text).not.toContain('BEGIN:VTIMEZONE');
    const { events } = parse(text);
    const deepClean = events.find((e) => e.uid === `${ids.scheduled}@shopdesk`)!;
    expect(deepClean.component.getFirstProperty('dtstart')!.toICALString()).toBe('DTSTART:20261120T140000Z');
    expect(deepClean.startDate.toJSDate().toISOString()).toBe('2026-11-20T14:00:00.000Z');
    expect(deepClean.endDate.toJSDate().toISOString()).toBe('2026-11-20T17:00:00.000Z');

    // A job without an end lasts an hour.
    const summer = events.find((e) => e.uid === `${ids.summer}@shopdesk`)!;
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
    expectStatus(revoked, 401);
    expect(revoked.body.error.code).toBe('unauthorized');
    expect((await feed(`?token=${replacement}`)).status).toBe(200);
    feedToken = replacement;
  });

  it('does not let the feed token stand in for the portal key elsewhere', async () => {
    const asBearer = await shop.portal('GET', '/jobs', { key: feedToken });
    expectStatus(asBearer, 403);
    expect(asBearer.body.error.code).toBe('forbidden');
    const asQuery = await shop.portal('GET', `/jobs?token=${feedToken}`, { key: null });
    expectStatus(asQuery, 401);
  });

  it("refuses another account's feed token", async () => {
    const other = await server.createAccount({ business: 'Other Co' });
    const otherToken = (await createKey(server.ctx, other.clientId, { kind: 'feed' })).key;
    const refused = await feed(`?token=${otherToken}`);
    expectStatus(refused, 403);
  });
});

describe('calendar feed across zones and clock changes', () => {
  /** Jobs typed in the UI as wall-clock times of the account's zone, read back from the feed. */
  async function feedStarts(timezone: string, slots: Array<[string, string]>) {
    const account = await server.createAccount({ business: `Shop in ${timezone}` });
    await account.portal('PUT', '/config', { body: { timezone } });
    const token = (await createKey(server.ctx, account.clientId, { kind: 'feed' })).key;
    for (const [date, time] of slots) {
      const start = zonedToUtc(date, time, timezone)
        .toISOString()
        .replace(/\.\d{3}Z$/, 'Z');
      const created = await account.portal('POST', '/jobs/create', {
        body: { customer_email: 'walk@example.com', title: `${date} ${time}`, scheduled_start: start },
      });
      expectStatus(created, 201);
    }
    const text = (await account.portal('GET', `/calendar.ics?token=${token}`, { key: null })).text;
    return Object.fromEntries(
      parse(text).events.map((e) => [e.summary.split(' — ')[0], e.startDate.toJSDate().toISOString()]),
    );
  }

  it('puts a Vancouver job at the same instant before and after British Columbia stopped changing clocks', async () => {
    const starts = await feedStarts('America/Vancouver', [
      ['2026-11-27', '00:30'],
      ['2026-09-03', '09:00'],
      ['2027-01-15', '09:00'],
    ]);
    expect(starts['2026-11-27 00:30']).toBe('2026-11-27T07:30:00.000Z');
    expect(starts['2026-09-03 09:00']).toBe('2026-09-03T16:00:00.000Z');
    expect(starts['2027-01-15 09:00']).toBe('2027-01-15T16:00:00.000Z');
  });

  it('puts Sydney jobs on both sides of its clock changes at the right instants', async () => {
    const starts = await feedStarts('Australia/Sydney', [
      ['2026-12-01', '08:00'],
      ['2027-06-01', '08:00'],
    ]);
    expect(starts['2026-12-01 08:00']).toBe('2026-11-30T21:00:00.000Z');
    expect(starts['2027-06-01 08:00']).toBe('2027-05-31T22:00:00.000Z');
  });
});
