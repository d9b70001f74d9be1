import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const clock = manualClock('2026-11-22T09:00:00Z');
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

const invoiceBody = (email: string) => ({
  customer_name: 'Ada Lovelace',
  customer_email: email,
  items: [
    { description: 'Deep clean', quantity: 2, unit_price: 100 },
    { description: 'Oven', quantity: 1, unit_price: 49.99 },
  ],
  taxes: [{ name: 'HST', rate: 0.13 }],
  due_days: 14,
});

const ids = (body: { data: Array<{ id: string }> }) => body.data.map((r) => r.id);

describe('v1 jobs', () => {
  it('creates, lists, gets, updates, starts, completes and refuses to cancel a completed job', async () => {
    const created = await shop.v1('POST', '/jobs', {
      body: {
        customer_email: 'job-client@example.com',
        customer_name: 'Job Client',
        title: 'Gutters',
        scheduled_start: '2026-11-24T14:00:00Z',
        scheduled_end: '2026-11-24T16:00:00Z',
        assignees: ['Sam'],
        price: 120,
      },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'job',
      status: 'scheduled',
      assignees: ['Sam'],
      price: 120,
    });
    expect(created.body.job_number).toMatch(/^J-\d{4}$/);
    const id = created.body.id;

    const client = expectOk(await shop.v1('GET', `/clients/${created.body.customer.id}`));
    expect(client.body.email).toBe('job-client@example.com');

    expect(okBody(await shop.v1('GET', `/jobs/${id}`))).toEqual(created.body);
    expect(okBody(await shop.v1('GET', `/jobs/${created.body.job_number}`)).id).toBe(id);

    const updated = expectOk(
      await shop.v1('PATCH', `/jobs/${id}`, { body: { title: 'Gutters and downspouts' } }),
    );
    expect(updated.body.title).toBe('Gutters and downspouts');

    const started = expectOk(await shop.v1('POST', `/jobs/${id}/start`));
    expect(started.body.status).toBe('in_progress');
    const completed = await shop.v1('POST', `/jobs/${id}/complete`);
    expectStatus(completed, 200);
    expect(completed.body).toMatchObject({ status: 'completed', completed_at: '2026-11-22T09:00:00Z' });

    const cancel = await shop.v1('POST', `/jobs/${id}/cancel`);
    expectStatus(cancel, 409);
    expect(cancel.body.error.code).toBe('invalid_state');
    expect((await shop.v1('DELETE', `/jobs/${id}`)).status).toBe(409);

    const list = expectOk(
      await shop.v1('GET', `/jobs?status=completed&client_id=${created.body.customer.id}`),
    );
    expect(ids(list.body)).toEqual([id]);
    expect(okBody(await shop.v1('GET', '/jobs?status=scheduled')).data).toEqual([]);
  });

  it('cancels and deletes jobs, and validates bodies and filters', async () => {
    const a = expectOk(
      await shop.v1('POST', '/jobs', { body: { customer_email: 'j2@example.com', title: 'A' } }),
    );
    expect(a.body.status).toBe('unscheduled');
    // An action posted with an empty JSON object, as some HTTP clients always send a body.
    expect(okBody(await shop.v1('POST', `/jobs/${a.body.id}/cancel`, { body: {} })).status).toBe('cancelled');
    const b = expectOk(
      await shop.v1('POST', '/jobs', { body: { customer_email: 'j2@example.com', title: 'B' } }),
    );
    const deleted = expectOk(await shop.v1('DELETE', `/jobs/${b.body.id}`));
    expect(deleted.body).toEqual({ id: b.body.id, object: 'job', deleted: true });
    expect((await shop.v1('GET', `/jobs/${b.body.id}`)).status).toBe(404);

    const bad = await shop.v1('POST', '/jobs', {
      body: {
        customer_email: 'j2@example.com',
        title: 'C',
        scheduled_start: '2026-11-24T14:00:00Z',
        scheduled_end: '2026-11-24T13:00:00Z',
      },
    });
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe('scheduled_end');
    const badStatus = await shop.v1('GET', '/jobs?status=finished');
    expectStatus(badStatus, 400);
    expect(badStatus.body.error.param).toBe('status');
    const badClient = await shop.v1('GET', '/jobs?client_id=42');
    expectStatus(badClient, 400);
    expect(badClient.body.error.param).toBe('client_id');
  });
});

describe('v1 invoices', () => {
  it('creates a draft with server-computed totals, updates it and deletes it', async () => {
    const created = await shop.v1('POST', '/invoices', {
      body: { ...invoiceBody('inv-a@example.com'), total: 1 },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'invoice',
      status: 'draft',
      subtotal: 249.99,
      tax_total: 32.5,
      total: 282.49,
      balance: 282.49,
      issue_date: '2026-11-22',
      due_date: '2026-12-06',
    });
    const updated = expectOk(
      await shop.v1('PATCH', `/invoices/${created.body.id}`, { body: { notes: 'Thanks' } }),
    );
    expect(updated.body.notes).toBe('Thanks');
    expect(okBody(await shop.v1('GET', `/invoices/${created.body.number}`)).id).toBe(created.body.id);

    const deleted = expectOk(await shop.v1('DELETE', `/invoices/${created.body.id}`));
    expect(deleted.body).toEqual({ id: created.body.id, object: 'invoice', deleted: true });
    expect((await shop.v1('GET', `/invoices/${created.body.id}`)).status).toBe(404);
  });

  it('sends, takes payments until paid, and filters by status', async () => {
    const created = expectOk(await shop.v1('POST', '/invoices', { body: invoiceBody('inv-b@example.com') }));
    const id = created.body.id;
    const queued = expectOk(await shop.v1('POST', `/invoices/${id}/send`));
    expect(queued.body).toMatchObject({ status: 'draft', sent_at: null });
    const sent = expectOk(await shop.v1('POST', `/invoices/${id}/mark-sent`));
    expect(sent.body.status).toBe('sent');

    expect((await shop.v1('DELETE', `/invoices/${id}`)).status).toBe(409);
    expect((await shop.v1('PATCH', `/invoices/${id}`, { body: { notes: 'x' } })).status).toBe(409);

    const tooMuch = await shop.v1('POST', `/invoices/${id}/payments`, { body: { amount: 1000 } });
    expectStatus(tooMuch, 400);
    expect(tooMuch.body.error.param).toBe('amount');

    const partial = await shop.v1('POST', `/invoices/${id}/payments`, {
      body: { amount: 100, method: 'card' },
    });
    expectStatus(partial, 200);
    expect(partial.body).toMatchObject({ status: 'partially_paid', amount_paid: 100, balance: 182.49 });
    expect((await shop.v1('POST', `/invoices/${id}/void`)).status).toBe(409);

    const paid = expectOk(await shop.v1('POST', `/invoices/${id}/paid`, { body: { method: 'cash' } }));
    expect(paid.body).toMatchObject({ status: 'paid', balance: 0 });
    expect(paid.body.payments).toHaveLength(2);
    const other = expectOk(await shop.v1('POST', '/invoices', { body: invoiceBody('inv-b@example.com') }));
    await shop.v1('POST', `/invoices/${other.body.id}/mark-sent`);
    const paidWithoutBody = expectOk(await shop.v1('POST', `/invoices/${other.body.id}/paid`));
    expect(paidWithoutBody.body).toMatchObject({ status: 'paid', amount_paid: 282.49 });

    expect(ids(okBody(await shop.v1('GET', '/invoices?status=paid')))).toEqual([other.body.id, id]);
    expect(ids(okBody(await shop.v1('GET', `/invoices?client_id=${created.body.customer.id}`)))).toEqual([
      other.body.id,
      id,
    ]);
    const badStatus = await shop.v1('GET', '/invoices?status=settled');
    expectStatus(badStatus, 400);
    expect(badStatus.body.error.param).toBe('status');
  });

  it('voids a sent invoice and shows overdue ones under status=overdue', async () => {
    const toVoid = expectOk(await shop.v1('POST', '/invoices', { body: invoiceBody('inv-c@example.com') }));
    await shop.v1('POST', `/invoices/${toVoid.body.id}/mark-sent`);
    const voided = expectOk(await shop.v1('POST', `/invoices/${toVoid.body.id}/void`));
    expect(voided.body.status).toBe('void');
    expect(
      (await shop.v1('POST', `/invoices/${toVoid.body.id}/payments`, { body: { amount: 1 } })).status,
    ).toBe(409);

    const late = expectOk(
      await shop.v1('POST', '/invoices', {
        body: { ...invoiceBody('inv-d@example.com'), issue_date: '2026-10-01', due_days: 7 },
      }),
    );
    await shop.v1('POST', `/invoices/${late.body.id}/mark-sent`);
    const overdue = expectOk(await shop.v1('GET', '/invoices?status=overdue'));
    expect(ids(overdue.body)).toEqual([late.body.id]);
    expect(overdue.body.data[0]!.status).toBe('overdue');
  });
});

describe('v1 quotes', () => {
  it('sends, accepts and converts a quote into a job', async () => {
    const { customer_name, customer_email, items, taxes } = invoiceBody('quote-a@example.com');
    const created = await shop.v1('POST', '/quotes', {
      body: { customer_name, customer_email, items, taxes, valid_days: 30 },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'quote',
      status: 'draft',
      total: 282.49,
      valid_until: '2026-12-22',
    });
    const id = created.body.id;
    const patched = expectOk(
      await shop.v1('PATCH', `/quotes/${id}`, { body: { valid_until: '2026-12-31' } }),
    );
    expect(patched.body.valid_until).toBe('2026-12-31');

    expect(okBody(await shop.v1('POST', `/quotes/${id}/send`)).status).toBe('draft');
    expect(okBody(await shop.v1('POST', `/quotes/${id}/mark-sent`)).status).toBe('sent');
    expect((await shop.v1('DELETE', `/quotes/${id}`)).status).toBe(409);
    expect(okBody(await shop.v1('POST', `/quotes/${id}/accept`)).status).toBe('accepted');
    expect((await shop.v1('POST', `/quotes/${id}/decline`)).status).toBe(409);

    const converted = expectOk(await shop.v1('POST', `/quotes/${id}/convert`));
    expect(converted.body.status).toBe('converted');
    const job = expectOk(await shop.v1('GET', `/jobs/${converted.body.job_id}`));
    expect(job.body).toMatchObject({ quote_id: id, price: 282.49, status: 'unscheduled' });
    expect((await shop.v1('POST', `/quotes/${id}/convert`)).status).toBe(409);
    expect(ids(okBody(await shop.v1('GET', '/quotes?status=converted')))).toEqual([id]);
  });

  it('declines a quote and deletes a draft', async () => {
    const { customer_email, items } = invoiceBody('quote-b@example.com');
    const declined = expectOk(await shop.v1('POST', '/quotes', { body: { customer_email, items } }));
    await shop.v1('POST', `/quotes/${declined.body.id}/mark-sent`);
    expect(okBody(await shop.v1('POST', `/quotes/${declined.body.id}/decline`)).status).toBe('declined');
    expect((await shop.v1('POST', `/quotes/${declined.body.id}/accept`)).status).toBe(409);

    const draft = expectOk(await shop.v1('POST', '/quotes', { body: { customer_email, items } }));
    const deleted = expectOk(await shop.v1('DELETE', `/quotes/${draft.body.id}`));
    expect(deleted.body).toEqual({ id: draft.body.id, object: 'quote', deleted: true });

    const noItems = await shop.v1('POST', '/quotes', { body: { customer_email, items: [] } });
    expectStatus(noItems, 400);
    expect(noItems.body.error.param).toBe('items');
  });
});

describe('v1 bookings', () => {
  const booking = {
    customer_email: 'booker@example.com',
    customer_name: 'Booker',
    service: 'Window cleaning',
    start: '2026-11-26T15:00:00Z',
    end: '2026-11-26T16:30:00Z',
  };

  it('creates a pending booking from v1, confirms it into a job, and cancels it with its job', async () => {
    const created = await shop.v1('POST', '/bookings', { body: booking });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({ object: 'booking', status: 'pending', source: 'v1', job_id: null });
    const id = created.body.id;
    const moved = expectOk(
      await shop.v1('PATCH', `/bookings/${id}`, {
        body: { start: '2026-11-27T15:00:00Z', end: '2026-11-27T16:30:00Z' },
      }),
    );
    expect(moved.body.start).toBe('2026-11-27T15:00:00Z');

    const confirmed = expectOk(
      await shop.v1('POST', `/bookings/${id}/confirm`, { body: { assignees: ['Sam'] } }),
    );
    expect(confirmed.body.status).toBe('confirmed');
    const job = expectOk(await shop.v1('GET', `/jobs/${confirmed.body.job_id}`));
    expect(job.body).toMatchObject({ status: 'scheduled', scheduled_start: '2026-11-27T15:00:00Z' });
    expect((await shop.v1('DELETE', `/bookings/${id}`)).status).toBe(409);

    const cancelled = expectOk(await shop.v1('POST', `/bookings/${id}/cancel`));
    expect(cancelled.body.status).toBe('cancelled');
    expect(okBody(await shop.v1('GET', `/jobs/${confirmed.body.job_id}`)).status).toBe('cancelled');
    expect((await shop.v1('POST', `/bookings/${id}/confirm`)).status).toBe(409);
    expect(ids(okBody(await shop.v1('GET', '/bookings?status=cancelled')))).toEqual([id]);
  });

  it('completes, marks no-shows, deletes a pending booking and validates times', async () => {
    const a = expectOk(await shop.v1('POST', '/bookings', { body: booking }));
    await shop.v1('POST', `/bookings/${a.body.id}/confirm`, { body: { create_job: false } });
    expect(okBody(await shop.v1('POST', `/bookings/${a.body.id}/complete`)).status).toBe('completed');
    const b = expectOk(await shop.v1('POST', '/bookings', { body: booking }));
    const withJob = expectOk(await shop.v1('POST', `/bookings/${b.body.id}/confirm`));
    expect(okBody(await shop.v1('POST', `/bookings/${b.body.id}/no_show`)).status).toBe('no_show');
    expect(okBody(await shop.v1('GET', `/jobs/${withJob.body.job_id}`)).status).toBe('cancelled');
    const c = expectOk(await shop.v1('POST', '/bookings', { body: { ...booking, source: 'phone' } }));
    expect(c.body.source).toBe('phone');
    expect(okBody(await shop.v1('DELETE', `/bookings/${c.body.id}`))).toEqual({
      id: c.body.id,
      object: 'booking',
      deleted: true,
    });

    const backwards = await shop.v1('POST', '/bookings', {
      body: { ...booking, end: '2026-11-26T14:00:00Z' },
    });
    expectStatus(backwards, 400);
    expect(backwards.body.error.param).toBe('end');
  });
});

describe('v1 reviews', () => {
  it('records, lists, updates and deletes reviews', async () => {
    const job = expectOk(
      await shop.v1('POST', '/jobs', {
        body: { customer_email: 'reviewer@example.com', title: 'Clean' },
      }),
    );
    const created = await shop.v1('POST', '/reviews', {
      body: { rating: 5, comment: 'Spotless', job_number: job.body.job_number, source: 'Google' },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'review',
      rating: 5,
      source: 'google',
      job: { id: job.body.id },
      customer: { email: 'reviewer@example.com' },
    });
    const id = created.body.id;
    expect(okBody(await shop.v1('GET', `/reviews/${id}`))).toEqual(created.body);
    const updated = expectOk(await shop.v1('PATCH', `/reviews/${id}`, { body: { rating: 4 } }));
    expect(updated.body.rating).toBe(4);
    expect(ids(okBody(await shop.v1('GET', `/reviews?client_id=${job.body.customer.id}`)))).toEqual([id]);
    expect(ids(okBody(await shop.v1('GET', '/reviews?rating=5')))).toEqual([]);

    const bad = await shop.v1('POST', '/reviews', { body: { rating: 6 } });
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe('rating');

    const deleted = expectOk(await shop.v1('DELETE', `/reviews/${id}`));
    expect(deleted.body).toEqual({ id, object: 'review', deleted: true });
    expect((await shop.v1('GET', `/reviews/${id}`)).status).toBe(404);
  });
});

describe('v1 and the portal share their records', () => {
  it('shows a v1 job and invoice in the portal, and a portal invoice in v1', async () => {
    const job = expectOk(
      await shop.v1('POST', '/jobs', {
        body: { customer_email: 'shared@example.com', title: 'Shared' },
      }),
    );
    const portalJobs = expectOk(await shop.portal('GET', '/jobs'));
    expect(portalJobs.body.data.map((j: { id: string }) => j.id)).toContain(job.body.id);

    const viaPortal = await shop.portal('POST', '/invoices/create', {
      body: invoiceBody('shared@example.com'),
    });
    expectStatus(viaPortal, 201);
    const inV1 = expectOk(await shop.v1('GET', `/invoices/${viaPortal.body.id}`));
    expect(inV1.body).toEqual(viaPortal.body);
    const client = expectOk(await shop.v1('GET', `/clients/${viaPortal.body.customer.id}`));
    expect(client.body.email).toBe('shared@example.com');
  });
});
