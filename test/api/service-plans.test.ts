import ICAL from 'ical.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { visitId } from '../../server/domain/plan-visits';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { every2ndTuesday, planVisits } from './service-plan-fixtures';

/**
 * Service plans end to end (docs/recurring-work.md): "every second Tuesday, billed monthly", its
 * visits as jobs and in the calendar feed, the horizon extended by the schedule (idempotently), a
 * series edited mid-way, its monthly invoice, its end. Per-visit billing:
 * service-plans-per-visit.test.ts; refusals, deletion, a synced device and v1: service-plans-v1.test.ts.
 */

const clock = manualClock('2026-11-23T15:00:00Z'); // Monday 23 Nov 2026, 10:00 in Toronto
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount({ business: 'Green Thumb' });
});
afterAll(() => server.stop());

const visits = (planId: string, when?: string) => planVisits(shop, planId, when);

describe('a plan "every second Tuesday, billed monthly"', () => {
  let planId: string;

  it('previews the rule in words and its next visits before anything is saved', async () => {
    const {
      customer_email,
      customer_name,
      title,
      address,
      price,
      assignees,
      billing,
      invoice_delivery,
      ...rule
    } = every2ndTuesday;
    const preview = await shop.portal('POST', '/service-plans/preview', { body: { ...rule, visits: 3 } });
    expectStatus(preview, 200);
    expect(preview.body).toEqual({
      summary: 'Every 2 weeks on Tuesday, 9:00–11:00, until 30 Jun 2027',
      rrule: 'DTSTART:20261201T000000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2;WKST=MO;BYDAY=TU;UNTIL=20270630T000000Z',
      time_zone: 'America/Toronto',
      visits: [
        {
          occurrence: '2026-12-01',
          date: '2026-12-01',
          start: '2026-12-01T14:00:00Z',
          end: '2026-12-01T16:00:00Z',
          moved: false,
        },
        {
          occurrence: '2026-12-15',
          date: '2026-12-15',
          start: '2026-12-15T14:00:00Z',
          end: '2026-12-15T16:00:00Z',
          moved: false,
        },
        {
          occurrence: '2026-12-29',
          date: '2026-12-29',
          start: '2026-12-29T14:00:00Z',
          end: '2026-12-29T16:00:00Z',
          moved: false,
        },
      ],
    });
    expect(await server.ctx.db.selectFrom('jobs').select('id').execute()).toEqual([]);
  });

  it('creates the plan and its visits up to the horizon (8 weeks) as ordinary scheduled jobs', async () => {
    const created = await shop.portal('POST', '/service-plans/create', { body: every2ndTuesday });
    expectStatus(created, 201);
    planId = created.body.id;
    expect(created.body).toMatchObject({
      object: 'service_plan',
      status: 'active',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      summary: 'Every 2 weeks on Tuesday, 9:00–11:00, until 30 Jun 2027',
      billing: 'per_period',
      horizon_weeks: 8,
      next_visit: '2026-12-01T14:00:00Z',
      time_zone: 'America/Toronto',
    });
    const all = await visits(planId);
    // Today + 56 days is 18 January 2027.
    expect(all.map((j) => [j.occurrence_date, j.scheduled_start, j.scheduled_end])).toEqual([
      ['2026-12-01', '2026-12-01T14:00:00Z', '2026-12-01T16:00:00Z'],
      ['2026-12-15', '2026-12-15T14:00:00Z', '2026-12-15T16:00:00Z'],
      ['2026-12-29', '2026-12-29T14:00:00Z', '2026-12-29T16:00:00Z'],
      ['2027-01-12', '2027-01-12T14:00:00Z', '2027-01-12T16:00:00Z'],
    ]);
    for (const job of all) {
      expect(job).toMatchObject({
        object: 'job',
        status: 'scheduled',
        service_plan_id: planId,
        title: 'Garden care',
        assignees: ['Sam'],
        address: '12 Analytical Way',
        price: 80,
      });
      expect(job.id).toBe(visitId(planId, job.occurrence_date));
    }
    expect(all.map((j) => j.job_number)).toEqual(['J-0001', 'J-0002', 'J-0003', 'J-0004']);
    // They are jobs like any other: in the job list and by number.
    const listed = expectOk(await shop.portal('GET', '/jobs?limit=100'));
    expect(listed.body.data).toHaveLength(4);
    expect(okBody(await shop.portal('GET', '/jobs/J-0002')).service_plan_id).toBe(planId);
    expect((await shop.events()).map((e) => e.type)).toContain('service_plan.created');
  });

  it('shows each visit in the calendar feed', async () => {
    const feedToken = (await createKey(server.ctx, shop.clientId, { kind: 'feed' })).key;
    const response = await shop.portal('GET', `/calendar.ics?token=${feedToken}`, { key: null });
    expectStatus(response, 200);
    const calendar = new ICAL.Component(ICAL.parse(response.text));
    const events = calendar.getAllSubcomponents('vevent').map((v) => new ICAL.Event(v));
    const all = await visits(planId);
    expect(events.map((e) => e.uid).sort()).toEqual(all.map((j) => `${j.id}@shopdesk`).sort());
    const first = events.find((e) => e.uid === `${all[0]!.id}@shopdesk`)!;
    expect(first.summary).toBe('Garden care — Ada Lovelace');
    expect(first.startDate.toJSDate().toISOString()).toBe('2026-12-01T14:00:00.000Z');
  });

  it('extends the horizon on its schedule, idempotently', async () => {
    clock.set('2026-12-07T15:00:00Z'); // two weeks on: the horizon reaches 1 February
    const first = await server.recurring.runNow();
    expect(first).toMatchObject({ visits_created: 1, visits_updated: 0, visits_removed: 0 });
    const again = await server.recurring.runNow();
    expect(again).toMatchObject({
      visits_created: 0,
      visits_updated: 0,
      visits_removed: 0,
      invoices_created: 0,
    });
    expect((await visits(planId)).map((j) => j.occurrence_date)).toEqual([
      '2026-12-01',
      '2026-12-15',
      '2026-12-29',
      '2027-01-12',
      '2027-01-26',
    ]);
  });

  it('edited mid-way: past, finished and owner-changed visits stay; future untouched ones follow', async () => {
    const [past, moved, cancelled, future1, future2] = await visits(planId);
    // The first visit happened and was completed; the owner moved one visit and cancelled another.
    expect((await shop.portal('POST', `/jobs/${past!.id}/complete`)).status).toBe(200);
    const move = await shop.portal('PATCH', `/jobs/${moved!.id}`, {
      body: { scheduled_start: '2026-12-16T15:00:00Z', scheduled_end: '2026-12-16T17:00:00Z' },
    });
    expectStatus(move, 200);
    expect((await shop.portal('POST', `/jobs/${cancelled!.id}/cancel`)).status).toBe(200);
    // A plan's visit is cancelled, never deleted: the series knows it.
    expect((await shop.v1('DELETE', `/jobs/${future1!.id}`)).status).toBe(409);

    const edited = await shop.portal('PATCH', `/service-plans/${planId}`, {
      body: { start_time: '10:00', end_time: '12:30', assignees: ['Sam', 'Lee'], price: 95 },
    });
    expectStatus(edited, 200);
    expect(edited.body.summary).toBe('Every 2 weeks on Tuesday, 10:00–12:30, until 30 Jun 2027');

    const after = await visits(planId);
    const byId = new Map(after.map((j) => [j.id, j]));
    expect(byId.get(past!.id)).toMatchObject({
      status: 'completed',
      scheduled_start: '2026-12-01T14:00:00Z',
      price: 80,
    });
    expect(byId.get(moved!.id)).toMatchObject({
      scheduled_start: '2026-12-16T15:00:00Z',
      assignees: ['Sam'],
      price: 80,
    });
    expect(byId.get(cancelled!.id)).toMatchObject({
      status: 'cancelled',
      scheduled_start: '2026-12-29T14:00:00Z',
    });
    for (const future of [future1!, future2!]) {
      const date = future.occurrence_date;
      expect(byId.get(future.id)).toMatchObject({
        status: 'scheduled',
        scheduled_start: `${date}T15:00:00Z`,
        scheduled_end: `${date}T17:30:00Z`,
        assignees: ['Lee', 'Sam'],
        price: 95,
      });
    }
    expect(after).toHaveLength(5);
    expect((await shop.events()).map((e) => e.type)).toContain('service_plan.updated');
  });

  it('a patch that changes nothing answers with the plan as it is, and raises no event', async () => {
    const before = okBody(await shop.portal('GET', `/service-plans/${planId}`));
    const events = async () =>
      okBody(await shop.v1('GET', '/events?type=service_plan.updated&limit=100')).data.length as number;
    const count = await events();
    const same = await shop.portal('PATCH', `/service-plans/${planId}`, { body: { title: before.title } });
    expectStatus(same, 200);
    expect(same.body).toEqual(before);
    expect((await shop.portal('PATCH', `/service-plans/${planId}`, { body: {} })).status).toBe(200);
    expect(await events()).toBe(count);
  });

  it('a rule change removes future untouched visits the new rule no longer has, and makes its own', async () => {
    const before = await visits(planId);
    const edited = await shop.portal('PATCH', `/service-plans/${planId}`, { body: { weekdays: ['WE'] } });
    expectStatus(edited, 200);
    const after = await visits(planId);
    // Kept: the completed, moved and cancelled visits. Gone: the Tuesdays ahead. New: Wednesdays of
    // the same fortnights (RFC 5545 counts intervals in weeks from the start date's week, WKST=MO).
    const kept = before.filter((j) => j.status !== 'scheduled' || j.occurrence_date === '2026-12-15');
    for (const job of kept) expect(after.find((j) => j.id === job.id)).toBeDefined();
    const upcoming = after.filter((j) => j.status === 'scheduled' && j.occurrence_date !== '2026-12-15');
    expect(upcoming.map((j) => j.occurrence_date)).toEqual([
      '2026-12-16',
      '2026-12-30',
      '2027-01-13',
      '2027-01-27',
    ]);
    expect(upcoming.every((j) => j.scheduled_start.endsWith('T15:00:00Z'))).toBe(true);
  });

  it('bills the month once it ends: one invoice for its completed visits, made once', async () => {
    await shop.portal(
      'POST',
      `/jobs/${(await visits(planId)).find((j) => j.occurrence_date === '2026-12-15')!.id}/complete`,
    );
    clock.set('2027-01-01T06:00:00Z'); // 1 January, 01:00 in Toronto
    const report = await server.recurring.runNow();
    expect(report.invoices_created).toBe(1);
    const invoices = okBody(await shop.portal('GET', '/invoices?limit=100')).data;
    expect(invoices).toHaveLength(1);
    expect(invoices[0]).toMatchObject({
      status: 'draft',
      customer: { email: 'ada@example.com' },
      items: [
        { description: 'Garden care, 1 Dec 2026', quantity: 1, unit_price: 80 },
        // The moved visit is billed on the day it happened.
        { description: 'Garden care, 16 Dec 2026', quantity: 1, unit_price: 80 },
      ],
      notes: 'Service plan: Garden care, Dec 2026 (2 visits).',
    });
    expect((await server.recurring.runNow()).invoices_created).toBe(0);
    expect(okBody(await shop.portal('GET', '/invoices')).data).toHaveLength(1);
  });

  it('ends: future untouched visits go, history stays, no more visits are made', async () => {
    const ended = await shop.portal('POST', `/service-plans/${planId}/end`, { body: {} });
    expectStatus(ended, 200);
    expect(ended.body).toMatchObject({ status: 'ended', next_visit: null });
    const left = await visits(planId);
    expect(left.every((j) => j.status !== 'scheduled' || j.scheduled_start < '2027-01-01T06:00:00Z')).toBe(
      true,
    );
    expect((await server.recurring.runNow()).visits_created).toBe(0);
    expect((await shop.portal('PATCH', `/service-plans/${planId}`, { body: { title: 'x' } })).status).toBe(
      409,
    );
    expect((await shop.portal('DELETE', `/service-plans/${planId}`)).status).toBe(409);
    expect((await shop.events()).map((e) => e.type)).toContain('service_plan.ended');
  });
});
