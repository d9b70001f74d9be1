import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock: manualClock('2026-11-18T15:00:00Z') });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

const create = (body: Record<string, unknown>) => shop.portal('POST', '/jobs/create', { body });

describe('portal jobs', () => {
  it('creates a scheduled job, its customer and its team members', async () => {
    const created = await create({
      customer_email: 'Ada@Example.com',
      customer_name: 'Ada Lovelace',
      title: 'Deep clean',
      scheduled_start: '2026-11-20T09:00:00-05:00',
      scheduled_end: '2026-11-20T12:00:00-05:00',
      assignees: ['Sam', 'Alex'],
      address: '1 Main St',
      price: 180.5,
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'job',
      job_number: 'J-0001',
      status: 'scheduled',
      customer: { name: 'Ada Lovelace', email: 'Ada@Example.com' },
      title: 'Deep clean',
      scheduled_start: '2026-11-20T14:00:00Z',
      scheduled_end: '2026-11-20T17:00:00Z',
      assignees: ['Alex', 'Sam'],
      address: '1 Main St',
      price: 180.5,
      quote_id: null,
      booking_id: null,
      completed_at: null,
    });
    expect(created.body.id).toMatch(/^job_/);

    const customerEvents = await shop.events('customer.created');
    expect(customerEvents).toHaveLength(1);
    expect(customerEvents[0]!.data.object).toMatchObject({
      id: created.body.customer.id,
      name: 'Ada Lovelace',
    });

    const team = expectOk(await shop.portal('GET', '/team'));
    expect(team.body.data.map((m: { name: string }) => m.name)).toEqual(['Alex', 'Sam']);
  });

  it('creates an unscheduled job and reuses the customer and members case-insensitively', async () => {
    const created = await create({ customer_email: 'ada@example.com', title: 'Windows', assignees: ['sam'] });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      job_number: 'J-0002',
      status: 'unscheduled',
      scheduled_start: null,
      assignees: ['Sam'],
      price: null,
    });
    expect(await shop.events('customer.created')).toHaveLength(1);
  });

  it("puts a job at the customer's address unless it says otherwise", async () => {
    const own = await server.createAccount({ business: 'Harbour Cleaning' });
    const create = (body: Record<string, unknown>) => own.portal('POST', '/jobs/create', { body });
    const customer = await own.portal('POST', '/customers', {
      body: { name: 'Grace Hopper', email: 'grace@example.com', address: '7 Harbour Rd' },
    });
    expectStatus(customer, 201);
    const defaulted = expectOk(await create({ customer_email: 'grace@example.com', title: 'Windows' }));
    expect(defaulted.body.address).toBe('7 Harbour Rd');
    const elsewhere = expectOk(
      await create({
        customer_email: 'grace@example.com',
        title: 'Office',
        address: '1 Bay St',
      }),
    );
    expect(elsewhere.body.address).toBe('1 Bay St');
    const none = expectOk(
      await create({ customer_email: 'grace@example.com', title: 'Phone advice', address: null }),
    );
    expect(none.body.address).toBeNull();
  });

  it('refuses an end before the start, an end without a start and a bad e-mail with 400 and param', async () => {
    const backwards = await create({
      customer_email: 'ada@example.com',
      title: 'X',
      scheduled_start: '2026-11-20T12:00:00Z',
      scheduled_end: '2026-11-20T11:00:00Z',
    });
    expectStatus(backwards, 400);
    expect(backwards.body.error).toMatchObject({ code: 'validation_failed', param: 'scheduled_end' });

    const endOnly = await create({
      customer_email: 'ada@example.com',
      title: 'X',
      scheduled_end: '2026-11-20T11:00:00Z',
    });
    expectStatus(endOnly, 400);
    expect(endOnly.body.error.param).toBe('scheduled_end');

    const badEmail = await create({ customer_email: 'nope', title: 'X' });
    expectStatus(badEmail, 400);
    expect(badEmail.body.error.param).toBe('customer_email');

    const negative = expectError(await create({ customer_email: 'ada@example.com', title: 'X', price: -1 }));
    expect(negative.body.error.param).toBe('price');
  });

  it('gets a job by number or id and answers 404 for an unknown one', async () => {
    const byNumber = await shop.portal('GET', '/jobs/J-0001');
    expectStatus(byNumber, 200);
    const byId = expectOk(await shop.portal('GET', `/jobs/${byNumber.body.id}`));
    expect(byId.body.job_number).toBe('J-0001');
    const missing = await shop.portal('GET', '/jobs/J-9999');
    expectStatus(missing, 404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('lists newest first with status, assignee, customer and date filters', async () => {
    await create({
      customer_email: 'grace@example.com',
      title: 'Move-out clean',
      scheduled_start: '2026-11-25T15:00:00Z',
      assignees: ['Alex'],
    });
    const all = expectOk(await shop.portal('GET', '/jobs'));
    expect(all.body.data.map((j: { job_number: string }) => j.job_number)).toEqual([
      'J-0003',
      'J-0002',
      'J-0001',
    ]);

    const numbers = async (query: string) =>
      okBody(await shop.portal('GET', `/jobs?${query}`)).data.map(
        (j: { job_number: string }) => j.job_number,
      );
    expect(await numbers('status=unscheduled')).toEqual(['J-0002']);
    expect(await numbers('assignee=SAM')).toEqual(['J-0002', 'J-0001']);
    expect(await numbers('customer_email=GRACE@example.com')).toEqual(['J-0003']);
    // A date is a whole day in the account's zone (Toronto): the 20th includes 09:00 local.
    expect(await numbers('from=2026-11-20&to=2026-11-20')).toEqual(['J-0001']);
    expect(await numbers('from=2026-11-21T00:00:00Z')).toEqual(['J-0003']);

    const page = expectOk(await shop.portal('GET', '/jobs?limit=2'));
    expect(page.body.pagination.has_more).toBe(true);
    const rest = expectOk(
      await shop.portal('GET', `/jobs?limit=2&cursor=${page.body.pagination.next_cursor}`),
    );
    expect(rest.body.data.map((j: { job_number: string }) => j.job_number)).toEqual(['J-0001']);

    const bad = await shop.portal('GET', '/jobs?status=done');
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe('status');
  });

  it('reschedules, reassigns and unschedules with PATCH', async () => {
    const scheduled = await shop.portal('PATCH', '/jobs/J-0002', {
      body: {
        scheduled_start: '2026-11-21T14:00:00Z',
        scheduled_end: '2026-11-21T16:00:00Z',
        assignees: ['Jordan'],
        title: 'Windows and gutters',
      },
    });
    expectStatus(scheduled, 200);
    expect(scheduled.body).toMatchObject({
      status: 'scheduled',
      assignees: ['Jordan'],
      title: 'Windows and gutters',
      scheduled_end: '2026-11-21T16:00:00Z',
    });

    const backwards = await shop.portal('PATCH', '/jobs/J-0002', {
      body: { scheduled_end: '2026-11-21T13:00:00Z' },
    });
    expectStatus(backwards, 400);
    expect(backwards.body.error.param).toBe('scheduled_end');

    const unscheduled = expectOk(
      await shop.portal('PATCH', '/jobs/J-0002', { body: { scheduled_start: null } }),
    );
    expect(unscheduled.body).toMatchObject({
      status: 'unscheduled',
      scheduled_start: null,
      scheduled_end: null,
    });

    const unknownField = await shop.portal('PATCH', '/jobs/J-0002', { body: { status: 'completed' } });
    expectStatus(unknownField, 400);
  });

  it('starts and completes a job, writing job.completed, and refuses to do either twice', async () => {
    const started = await shop.portal('POST', '/jobs/J-0001/start');
    expectStatus(started, 200);
    expect(started.body).toMatchObject({ status: 'in_progress', started_at: '2026-11-18T15:00:00Z' });
    expect((await shop.portal('POST', '/jobs/J-0001/start')).status).toBe(409);

    const completed = await shop.portal('POST', '/jobs/J-0001/complete');
    expectStatus(completed, 200);
    expect(completed.body).toMatchObject({ status: 'completed', completed_at: '2026-11-18T15:00:00Z' });

    const events = await shop.events('job.completed');
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toEqual(completed.body);

    const again = await shop.portal('POST', '/jobs/J-0001/complete');
    expectStatus(again, 409);
    expect(again.body.error.code).toBe('invalid_state');
    expect(await shop.events('job.completed')).toHaveLength(1);

    const patch = await shop.portal('PATCH', '/jobs/J-0001', { body: { title: 'Too late' } });
    expectStatus(patch, 409);
    expect((await shop.portal('POST', '/jobs/J-0001/cancel')).status).toBe(409);
  });

  it('cancels an open job and refuses to complete it afterwards', async () => {
    const cancelled = expectOk(await shop.portal('POST', '/jobs/J-0003/cancel'));
    expect(cancelled.body).toMatchObject({ status: 'cancelled', cancelled_at: '2026-11-18T15:00:00Z' });
    const complete = await shop.portal('POST', '/jobs/J-0003/complete');
    expectStatus(complete, 409);
    expect(complete.body.error.code).toBe('invalid_state');
    expect((await shop.portal('POST', '/jobs/J-9999/cancel')).status).toBe(404);
  });

  it('lets a basic-plan account read jobs but not write them', async () => {
    const basic = await server.createAccount({ plan: 'basic' });
    expect((await basic.portal('GET', '/jobs')).status).toBe(200);
    const refused = await basic.portal('POST', '/jobs/create', {
      body: { customer_email: 'a@example.com', title: 'X' },
    });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
    expect((await basic.portal('GET', '/jobs/J-0001')).status).toBe(404);
  });
});
