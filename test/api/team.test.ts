import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, type Method, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
const numbers: Record<string, string> = {};

async function job(key: string, body: Record<string, unknown>) {
  const created = await shop.portal('POST', '/jobs/create', {
    body: { customer_email: 'ada@example.com', customer_name: 'Ada Lovelace', title: key, ...body },
  });
  expectStatus(created, 201);
  numbers[key] = created.body.job_number;
}

beforeAll(async () => {
  // Wednesday 18 November 2026, 10:00 in Toronto.
  server = await startTestServer({ clock: manualClock('2026-11-18T15:00:00Z') });
  shop = await server.createAccount();
  await job('tuesday', { scheduled_start: '2026-11-17T14:00:00Z', assignees: ['Sam'], address: '1 Main St' });
  await job('friday', {
    scheduled_start: '2026-11-20T14:00:00Z',
    scheduled_end: '2026-11-20T16:00:00Z',
    assignees: ['Sam', 'Alex'],
  });
  await job('nobody', { scheduled_start: '2026-11-19T14:00:00Z' });
  // 22:00 on Saturday in Toronto is already Sunday in UTC.
  await job('late', { scheduled_start: '2026-11-22T03:00:00Z', assignees: ['Sam'] });
  await job('called-off', { scheduled_start: '2026-11-18T14:00:00Z', assignees: ['Sam'] });
  await shop.portal('POST', `/jobs/${numbers['called-off']}/cancel`);
  await job('next-week', { scheduled_start: '2026-11-24T14:00:00Z', assignees: ['Alex'] });
});
afterAll(() => server.stop());

type Group = {
  member: { name: string } | null;
  job_count: number;
  days: { date: string; jobs: { job_number: string }[] }[];
};
const byDay = (group: Group) =>
  Object.fromEntries(
    group.days.filter((d) => d.jobs.length).map((d) => [d.date, d.jobs.map((j) => j.job_number)]),
  );

describe('portal team schedule', () => {
  it("defaults to this week, Monday to Sunday, grouping jobs by member and day in the account's zone", async () => {
    const schedule = await shop.portal('GET', '/team/schedule');
    expectStatus(schedule, 200);
    expect(schedule.body).toMatchObject({
      object: 'team_schedule',
      from: '2026-11-16',
      to: '2026-11-22',
      timezone: 'America/Toronto',
    });
    const [alex, sam] = schedule.body.members as Group[];
    expect(alex!.member!.name).toBe('Alex');
    expect(sam!.member!.name).toBe('Sam');
    expect(sam!.days.map((d) => d.date)).toEqual([
      '2026-11-16',
      '2026-11-17',
      '2026-11-18',
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      '2026-11-22',
    ]);
    expect(byDay(sam!)).toEqual({
      '2026-11-17': [numbers.tuesday],
      '2026-11-20': [numbers.friday],
      '2026-11-21': [numbers.late],
    });
    expect(sam!.job_count).toBe(3);
    expect(byDay(alex!)).toEqual({ '2026-11-20': [numbers.friday] });
    expect(byDay(schedule.body.unassigned)).toEqual({ '2026-11-19': [numbers.nobody] });
    expect(schedule.body.unassigned.member).toBeNull();

    const tuesday = sam!.days[1]!.jobs[0];
    expect(tuesday).toMatchObject({
      title: 'tuesday',
      customer_name: 'Ada Lovelace',
      address: '1 Main St',
      start: '2026-11-17T14:00:00Z',
      end: null,
      status: 'scheduled',
    });
  });

  it('takes a from/to window and refuses a bad or too long one', async () => {
    const nextWeek = expectOk(await shop.portal('GET', '/team/schedule?from=2026-11-23&to=2026-11-29'));
    expect(byDay(nextWeek.body.members[0]!)).toEqual({ '2026-11-24': [numbers['next-week']] });

    const tooLong = await shop.portal('GET', '/team/schedule?from=2026-11-01&to=2027-01-02');
    expectStatus(tooLong, 400);
    expect(tooLong.body.error.param).toBe('to');
    expect((await shop.portal('GET', '/team/schedule?from=2026-11-01&to=2027-01-01')).status).toBe(200);

    const backwards = await shop.portal('GET', '/team/schedule?from=2026-11-20&to=2026-11-19');
    expectStatus(backwards, 400);
    expect(backwards.body.error.param).toBe('to');
    const notADate = await shop.portal('GET', '/team/schedule?from=tomorrow');
    expectStatus(notADate, 400);
    expect(notADate.body.error.param).toBe('from');
  });
});

describe('portal team members', () => {
  it('lists members with their job counts', async () => {
    const team = await shop.portal('GET', '/team');
    expectStatus(team, 200);
    expect(team.body.data.map((m: { name: string; open_jobs: number }) => [m.name, m.open_jobs])).toEqual([
      ['Alex', 2],
      ['Sam', 3],
    ]);
  });

  it('adds a member, refuses a duplicate name and removes a member without open jobs', async () => {
    const added = await shop.portal('POST', '/team', { body: { name: 'Jordan' } });
    expectStatus(added, 201);
    expect(added.body).toMatchObject({ object: 'team_member', name: 'Jordan', open_jobs: 0 });
    const duplicate = await shop.portal('POST', '/team', { body: { name: 'jordan' } });
    expectStatus(duplicate, 409);
    expect(duplicate.body.error).toMatchObject({ code: 'conflict', param: 'name' });
    expect((await shop.portal('POST', '/team', { body: { name: '  ' } })).status).toBe(400);

    const removed = await shop.portal('DELETE', `/team/${added.body.id}`);
    expectStatus(removed, 200);
    expect(removed.body).toEqual({ id: added.body.id, object: 'team_member', deleted: true });
    expect((await shop.portal('DELETE', `/team/${added.body.id}`)).status).toBe(404);
  });

  it('refuses to remove a member with open jobs until they are finished', async () => {
    const team = expectOk(await shop.portal('GET', '/team'));
    const alex = team.body.data.find((m: { name: string }) => m.name === 'Alex');
    const refused = await shop.portal('DELETE', `/team/${alex!.id}`);
    expectStatus(refused, 409);
    expect(refused.body.error.code).toBe('invalid_state');

    await shop.portal('POST', `/jobs/${numbers.friday}/complete`);
    await shop.portal('POST', `/jobs/${numbers['next-week']}/cancel`);
    expect((await shop.portal('DELETE', `/team/${alex!.id}`)).status).toBe(200);
    const friday = expectOk(await shop.portal('GET', `/jobs/${numbers.friday}`));
    expect(friday.body).toMatchObject({ status: 'completed', assignees: ['Sam'] });
  });

  it('renames, deactivates with a hand-over, brings back, and removes with reassignment', async () => {
    const own = await server.createAccount({ business: 'Handover Co' });
    const ok = async <M extends Method, P extends string>(method: M, path: P, body?: unknown) =>
      okBody(await own.portal(method, path, { body }));
    const job = await ok('POST', '/jobs/create', {
      customer_email: 'ada@example.com',
      title: 'Windows',
      assignees: ['Jo', 'Kim'],
    });
    const members = (await ok('GET', '/team')).data;
    const jo = members.find((m) => m.name === 'Jo')!;
    const kim = members.find((m) => m.name === 'Kim')!;

    expect(await ok('PATCH', `/team/${jo.id}`, { name: 'Joanna' })).toMatchObject({
      name: 'Joanna',
      active: true,
    });
    expect((await ok('GET', `/jobs/${job.id}`)).assignees.sort()).toEqual(['Joanna', 'Kim']);
    expect((await own.portal('PATCH', `/team/${jo.id}`, { body: { name: 'kim' } })).status).toBe(409);

    const refused = expectError(await own.portal('PATCH', `/team/${kim.id}`, { body: { active: false } }));
    expect([refused.status, refused.body.error.message]).toEqual([
      409,
      'Kim has 1 open job; choose who takes them over before deactivating them',
    ]);
    const lee = await ok('POST', '/team', { name: 'Lee' });
    const off = await ok('PATCH', `/team/${kim.id}`, { active: false, reassign_to: lee.id });
    expect(off).toMatchObject({ active: false, open_jobs: 0 });
    expect((await ok('GET', `/jobs/${job.id}`)).assignees.sort()).toEqual(['Joanna', 'Lee']);
    const assignInactive = expectError(
      await own.portal('PATCH', `/jobs/${job.id}`, { body: { assignees: ['Kim'] } }),
    );
    expect([assignInactive.status, assignInactive.body.error.param]).toEqual([400, 'assignees']);
    expect(await ok('PATCH', `/team/${kim.id}`, { active: true })).toMatchObject({ active: true });

    // Joanna is already on the job: handing it to her keeps one assignment.
    expect((await own.portal('DELETE', `/team/${lee.id}`)).status).toBe(409);
    await ok('DELETE', `/team/${lee.id}?reassign_to=${jo.id}`);
    expect((await ok('GET', `/jobs/${job.id}`)).assignees).toEqual(['Joanna']);
  });

  it('keeps the team read-only on the basic plan', async () => {
    const basic = await server.createAccount({ plan: 'basic' });
    expect((await basic.portal('GET', '/team/schedule')).status).toBe(200);
    const refused = await basic.portal('POST', '/team', { body: { name: 'Kim' } });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
  });
});
