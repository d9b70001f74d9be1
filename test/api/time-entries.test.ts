import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import type { TeamMember } from '../../shared/schemas/team';
import type { TimeEntry, Timesheet } from '../../shared/schemas/time-entry';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

// Wednesday 18 November 2026, 10:00 in Toronto.
const clock = manualClock('2026-11-18T15:00:00Z');
let server: TestServer;
let shop: TestAccount;
let sam: TeamMember;
let kim: TeamMember;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
  await shop.portal('PUT', '/config', { body: { timezone: 'America/Toronto' } });
  sam = (await shop.portal<TeamMember>('POST', '/team', { body: { name: 'Sam' } })).body;
  kim = (await shop.portal<TeamMember>('POST', '/team', { body: { name: 'Kim' } })).body;
});
afterAll(() => server.stop());

const record = (body: Record<string, unknown>) => shop.portal<TimeEntry>('POST', '/time-entries', { body });

describe('hours worked', () => {
  it('records typed hours and refuses what payroll would pay wrongly', async () => {
    const job = okBody(
      await shop.portal('POST', '/jobs/create', {
        body: { customer_email: 'ada@example.com', customer_name: 'Ada Byron', title: 'Deep clean' },
      }),
    );
    const made = await record({
      member_id: sam.id,
      job_id: job.id,
      started_at: '2026-11-16T13:00:00Z',
      ended_at: '2026-11-16T16:30:00Z',
      note: 'Oven took longer',
    });
    expectStatus(made, 201);
    expect(made.body).toMatchObject({
      object: 'time_entry',
      member_id: sam.id,
      member_name: 'Sam',
      job_id: job.id,
      job_number: job.job_number,
      minutes: 210,
      source: 'office',
      note: 'Oven took longer',
    });

    const refused = async (body: Record<string, unknown>, status: number, param?: string) => {
      const answer = await record(body);
      expect(answer.status, JSON.stringify(answer.body)).toBe(status);
      if (param) expect((answer.body as any).error.param).toBe(param);
      return (answer.body as any).error;
    };
    const base = { member_id: sam.id, started_at: '2026-11-17T13:00:00Z' };
    await refused({ ...base, ended_at: '2026-11-17T12:00:00Z' }, 400, 'ended_at');
    await refused({ ...base, ended_at: '2026-11-18T14:00:00Z' }, 400, 'ended_at');
    await refused(
      { member_id: sam.id, started_at: '2026-11-18T16:00:00Z', ended_at: '2026-11-18T17:00:00Z' },
      400,
      'started_at',
    );
    await refused({ ...base, member_id: 'tm_nobody', ended_at: '2026-11-17T14:00:00Z' }, 400, 'member_id');
    await refused({ ...base, job_id: 'job_nothing', ended_at: '2026-11-17T14:00:00Z' }, 400, 'job_id');
    const overlap = await refused(
      { member_id: sam.id, started_at: '2026-11-16T16:00:00Z', ended_at: '2026-11-16T18:00:00Z' },
      409,
    );
    expect(overlap.message).toContain(made.body.id);
    // Kim may work the same hours; Sam's next shift may start when the last one ended.
    expect(
      (
        await record({
          member_id: kim.id,
          started_at: '2026-11-16T13:00:00Z',
          ended_at: '2026-11-16T15:00:00Z',
        })
      ).status,
    ).toBe(201);
    expect(
      (
        await record({
          member_id: sam.id,
          started_at: '2026-11-16T16:30:00Z',
          ended_at: '2026-11-16T17:00:00Z',
        })
      ).status,
    ).toBe(201);

    const other = await server.createAccount();
    const stranger = (await other.portal<TeamMember>('POST', '/team', { body: { name: 'Stranger' } })).body;
    await refused({ ...base, member_id: stranger.id, ended_at: '2026-11-17T14:00:00Z' }, 400, 'member_id');
    expect((await other.portal('GET', `/time-entries/${made.body.id}`)).status).toBe(404);
  });

  it('clocks a member in and out, once each', async () => {
    const start = await shop.portal<TimeEntry>('POST', '/time-entries/clock-in', {
      body: { member_id: kim.id },
    });
    expectStatus(start, 201);
    expect(start.body).toMatchObject({
      started_at: '2026-11-18T15:00:00Z',
      ended_at: null,
      minutes: null,
      source: 'clock',
    });
    const open = await shop.portal<{ data: TimeEntry[] }>('GET', '/time-entries?open=true');
    expect(open.body.data.map((e) => e.id)).toEqual([start.body.id]);
    const again = await shop.portal('POST', '/time-entries/clock-in', { body: { member_id: kim.id } });
    expectStatus(again, 409);
    expect((again.body as any).error.code).toBe('invalid_state');

    clock.advance(150 * 60_000);
    const end = await shop.portal<TimeEntry>('POST', `/time-entries/${start.body.id}/clock-out`);
    expect(end.body).toMatchObject({ ended_at: '2026-11-18T17:30:00Z', minutes: 150 });
    expect((await shop.portal('POST', `/time-entries/${start.body.id}/clock-out`)).status).toBe(409);

    const forgot = await shop.portal<TimeEntry>('POST', '/time-entries/clock-in', {
      body: { member_id: kim.id },
    });
    clock.advance(25 * 3_600_000);
    const late = await shop.portal('POST', `/time-entries/${forgot.body.id}/clock-out`);
    expectStatus(late, 409);
    const fixed = await shop.portal<TimeEntry>('PATCH', `/time-entries/${forgot.body.id}`, {
      body: { ended_at: '2026-11-18T22:00:00Z' },
    });
    expect(fixed.body.minutes).toBe(270);
    clock.set('2026-11-18T15:00:00Z');
  });

  it("adds up each person's week in the business's time zone, and gives payroll a CSV", async () => {
    clock.set('2026-11-20T15:00:00Z');
    // Sam's night shift from Thursday 22:00 to Friday 02:00 (Toronto) counts on Thursday.
    await record({ member_id: sam.id, started_at: '2026-11-20T03:00:00Z', ended_at: '2026-11-20T07:00:00Z' });
    const open = await shop.portal<TimeEntry>('POST', '/time-entries/clock-in', {
      body: { member_id: sam.id },
    });

    const sheet = (await shop.portal<Timesheet>('GET', '/timesheet?from=2026-11-16&to=2026-11-22')).body;
    expect(sheet).toMatchObject({
      object: 'timesheet',
      from: '2026-11-16',
      to: '2026-11-22',
      time_zone: 'America/Toronto',
    });
    expect(sheet.people.map((p) => [p.member.name, p.total_minutes])).toEqual([
      ['Kim', 120 + 150 + 270],
      ['Sam', 210 + 30 + 240],
    ]);
    const samDays = sheet.people[1]!.days.filter((d) => d.minutes > 0);
    expect(samDays).toEqual([
      { date: '2026-11-16', minutes: 240 },
      { date: '2026-11-19', minutes: 240 },
    ]);
    expect(sheet.people[1]!.entries.at(-1)).toMatchObject({ id: open.body.id, minutes: null });
    expect(sheet.total_minutes).toBe(540 + 480);

    const csv = await shop.portal<string>(
      'GET',
      `/timesheet.csv?from=2026-11-16&to=2026-11-22&member_id=${sam.id}`,
    );
    expectStatus(csv, 200);
    expect(csv.headers.get('content-type')).toContain('text/csv');
    expect(csv.headers.get('content-disposition')).toContain('timesheet-2026-11-16-to-2026-11-22.csv');
    expect(csv.text.split('\r\n')).toEqual([
      'Member,Date,Start,End,Hours,Job,Note',
      expect.stringMatching(/^Sam,2026-11-16,08:00,11:30,3\.50,J-\d+,Oven took longer$/),
      'Sam,2026-11-16,11:30,12:00,0.50,,',
      'Sam,2026-11-19,22:00,02:00,4.00,,',
      '',
    ]);
    await shop.portal('POST', `/time-entries/${open.body.id}/clock-out`);
  });

  it('keeps a member with hours on the team: they can be deactivated, not removed', async () => {
    const refused = await shop.portal('DELETE', `/team/${sam.id}`);
    expectStatus(refused, 409);
    expect((refused.body as any).error.message).toContain('deactivate them instead');
    const left = await shop.portal('PATCH', `/team/${sam.id}`, { body: { active: false } });
    expectStatus(left, 200);
    const sheet = await shop.portal<Timesheet>('GET', '/timesheet?from=2026-11-16&to=2026-11-22');
    expect(sheet.body.people.map((p) => p.member.name)).toContain('Sam');
    await shop.portal('PATCH', `/team/${sam.id}`, { body: { active: true } });
  });

  it('removes an entry from the list and the timesheet', async () => {
    const entry = okBody(
      await record({
        member_id: kim.id,
        started_at: '2026-11-17T13:00:00Z',
        ended_at: '2026-11-17T14:00:00Z',
      }),
    );
    const removed = expectOk(await shop.portal('DELETE', `/time-entries/${entry.id}`));
    expect(removed.body).toEqual({ id: entry.id, object: 'time_entry', deleted: true });
    expect((await shop.portal('GET', `/time-entries/${entry.id}`)).status).toBe(404);
    const listed = await shop.portal<{ data: TimeEntry[] }>(
      'GET',
      `/time-entries?member_id=${kim.id}&limit=100`,
    );
    expect(listed.body.data.map((e) => e.id)).not.toContain(entry.id);
    expect(listed.body.data.every((e) => e.member_id === kim.id)).toBe(true);
  });

  it('lets only this account, on a plan that writes, record hours', async () => {
    const other = await server.createAccount();
    const asOther = await shop.portal('GET', '/timesheet', { key: other.portalKey });
    expectStatus(asOther, 403);
    const withV1 = await shop.portal('GET', '/time-entries', { key: shop.v1Key });
    expectStatus(withV1, 403);
    expect((await shop.portal('GET', '/timesheet.csv', { key: null })).status).toBe(401);

    const basic = await server.createAccount({ plan: 'basic' });
    const refused = await basic.portal('POST', '/time-entries/clock-in', { body: { member_id: 'tm_x' } });
    expectStatus(refused, 403);
    expect((refused.body as any).error.code).toBe('plan_required');
    expect((await basic.portal('GET', '/timesheet')).status).toBe(200);
  });
});
