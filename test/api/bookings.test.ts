import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock: manualClock('2026-11-18T15:00:00Z') });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

let seq = 0;
async function book(overrides: Record<string, unknown> = {}) {
  seq += 1;
  const response = await shop.portal('POST', '/bookings', {
    body: {
      customer_email: 'ada@example.com',
      customer_name: 'Ada Lovelace',
      service: `Deep clean ${seq}`,
      start: '2026-11-20T14:00:00Z',
      end: '2026-11-20T16:00:00Z',
      ...overrides,
    },
  });
  expectStatus(response, 201);
  return response.body;
}

describe('portal bookings', () => {
  it('records a pending booking from the portal and writes booking.created', async () => {
    const booking = await book({ notes: 'Two cats' });
    expect(booking).toMatchObject({
      object: 'booking',
      status: 'pending',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      start: '2026-11-20T14:00:00Z',
      end: '2026-11-20T16:00:00Z',
      notes: 'Two cats',
      source: 'portal',
      job_id: null,
    });
    expect(booking.id).toMatch(/^bkg_/);
    const events = await shop.events('booking.created');
    expect(events.at(-1)!.data.object).toEqual(booking);
    expect((await shop.events('customer.created')).map((e) => e.data.object.email)).toEqual([
      'ada@example.com',
    ]);

    const widget = await book({ source: 'widget' });
    expect(widget.source).toBe('widget');
  });

  it('refuses an end before the start with 400 on end', async () => {
    const bad = await shop.portal('POST', '/bookings', {
      body: {
        customer_email: 'ada@example.com',
        service: 'X',
        start: '2026-11-20T14:00:00Z',
        end: '2026-11-20T13:00:00Z',
      },
    });
    expectStatus(bad, 400);
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', param: 'end' });
    const missing = await shop.portal('POST', '/bookings', { body: { customer_email: 'ada@example.com' } });
    expectStatus(missing, 400);
  });

  it('confirms with a linked, scheduled job for the booking', async () => {
    const booking = await book();
    const confirmed = await shop.portal('POST', `/bookings/${booking.id}/confirm`, {
      body: { assignees: ['Sam'], address: '1 Main St' },
    });
    expectStatus(confirmed, 200);
    expect(confirmed.body.status).toBe('confirmed');
    expect(confirmed.body.job_id).toMatch(/^job_/);
    const job = expectOk(await shop.portal('GET', `/jobs/${confirmed.body.job_id}`));
    expect(job.body).toMatchObject({
      status: 'scheduled',
      title: booking.service,
      booking_id: booking.id,
      scheduled_start: booking.start,
      scheduled_end: booking.end,
      assignees: ['Sam'],
      address: '1 Main St',
    });

    const again = await shop.portal('POST', `/bookings/${booking.id}/confirm`);
    expectStatus(again, 409);
    expect(again.body.error.code).toBe('invalid_state');

    // Moving the booking moves the job it created.
    const moved = await shop.portal('PATCH', `/bookings/${booking.id}`, {
      body: { start: '2026-11-21T14:00:00Z', end: '2026-11-21T15:00:00Z' },
    });
    expectStatus(moved, 200);
    const movedJob = expectOk(await shop.portal('GET', `/jobs/${confirmed.body.job_id}`));
    expect(movedJob.body.scheduled_start).toBe('2026-11-21T14:00:00Z');

    // Completing the booking completes its job, with job.completed.
    const completed = expectOk(await shop.portal('POST', `/bookings/${booking.id}/complete`));
    expect(completed.body.status).toBe('completed');
    const doneJob = expectOk(await shop.portal('GET', `/jobs/${confirmed.body.job_id}`));
    expect(doneJob.body.status).toBe('completed');
    expect((await shop.events('job.completed')).map((e) => e.data.object.id)).toEqual([
      confirmed.body.job_id,
    ]);

    const patchDone = await shop.portal('PATCH', `/bookings/${booking.id}`, { body: { notes: 'late' } });
    expectStatus(patchDone, 409);
  });

  it('confirms without a job when asked, and refuses to complete a pending booking', async () => {
    const booking = await book();
    expect((await shop.portal('POST', `/bookings/${booking.id}/complete`)).status).toBe(409);
    expect((await shop.portal('POST', `/bookings/${booking.id}/no_show`)).status).toBe(409);
    const confirmed = expectOk(
      await shop.portal('POST', `/bookings/${booking.id}/confirm`, {
        body: { create_job: false },
      }),
    );
    expect(confirmed.body).toMatchObject({ status: 'confirmed', job_id: null });
    const noShow = expectOk(await shop.portal('POST', `/bookings/${booking.id}/no_show`));
    expect(noShow.body.status).toBe('no_show');
    expect((await shop.portal('POST', `/bookings/${booking.id}/cancel`)).status).toBe(409);
  });

  it('cancels a confirmed booking together with its open job', async () => {
    const booking = await book();
    const confirmed = expectOk(await shop.portal('POST', `/bookings/${booking.id}/confirm`));
    const cancelled = expectOk(await shop.portal('POST', `/bookings/${booking.id}/cancel`));
    expect(cancelled.body.status).toBe('cancelled');
    const job = expectOk(await shop.portal('GET', `/jobs/${confirmed.body.job_id}`));
    expect(job.body.status).toBe('cancelled');
  });

  it('cancels a pending booking', async () => {
    const booking = await book();
    const cancelled = expectOk(await shop.portal('POST', `/bookings/${booking.id}/cancel`));
    expect(cancelled.body).toMatchObject({ status: 'cancelled', job_id: null });
  });

  it('refuses a PATCH that puts the end before the stored start', async () => {
    const booking = await book();
    const bad = await shop.portal('PATCH', `/bookings/${booking.id}`, {
      body: { end: '2026-11-20T13:00:00Z' },
    });
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe('end');
  });

  it('gets, filters and pages bookings; unknown ids are 404', async () => {
    await book({
      customer_email: 'grace@example.com',
      start: '2026-12-01T15:00:00Z',
      end: '2026-12-01T16:00:00Z',
    });
    const byCustomer = expectOk(await shop.portal('GET', '/bookings?customer_email=grace@example.com'));
    expect(byCustomer.body.data).toHaveLength(1);
    const december = expectOk(await shop.portal('GET', '/bookings?from=2026-12-01&to=2026-12-01'));
    expect(december.body.data.map((b) => b.customer.email)).toEqual(['grace@example.com']);
    const cancelled = expectOk(await shop.portal('GET', '/bookings?status=cancelled'));
    expect(cancelled.body.data.every((b: { status: string }) => b.status === 'cancelled')).toBe(true);
    expect(cancelled.body.data).toHaveLength(2);

    const all = expectOk(await shop.portal('GET', '/bookings?limit=3'));
    expect(all.body.pagination.has_more).toBe(true);
    const one = expectOk(await shop.portal('GET', `/bookings/${all.body.data[0]!.id}`));
    expect(one.body.id).toBe(all.body.data[0]!.id);

    const missing = await shop.portal('GET', '/bookings/bkg_00000000000000000000000000');
    expectStatus(missing, 404);
    expect((await shop.portal('POST', '/bookings/bkg_nope/confirm')).status).toBe(404);
  });

  it('keeps basic-plan accounts read-only', async () => {
    const basic = await server.createAccount({ plan: 'basic' });
    expect((await basic.portal('GET', '/bookings')).status).toBe(200);
    const refused = await basic.portal('POST', '/bookings', {
      body: {
        customer_email: 'a@example.com',
        service: 'X',
        start: '2026-11-20T14:00:00Z',
        end: '2026-11-20T15:00:00Z',
      },
    });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
  });
});
