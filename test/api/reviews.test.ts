import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;
let jobNumber: string;

beforeAll(async () => {
  // Wednesday 18 November 2026; the account's zone is America/Toronto.
  server = await startTestServer({ clock: manualClock('2026-11-18T15:00:00Z') });
  shop = await server.createAccount();
  const job = expectOk(
    await shop.portal('POST', '/jobs/create', {
      body: { customer_email: 'ada@example.com', customer_name: 'Ada Lovelace', title: 'Deep clean' },
    }),
  );
  jobNumber = job.body.job_number;
});
afterAll(() => server.stop());

const record = (body: Record<string, unknown>) => shop.portal('POST', '/reviews', { body });

describe('portal reviews', () => {
  it("records a review for a job, taking the job's customer, and writes review.received", async () => {
    const created = await record({
      rating: 5,
      comment: 'Spotless!',
      job_number: jobNumber,
      source: 'Google',
      received_at: '2026-11-17T15:00:00Z',
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'review',
      rating: 5,
      comment: 'Spotless!',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      job: { job_number: jobNumber },
      source: 'google',
      received_at: '2026-11-17T15:00:00Z',
    });
    const events = await shop.events('review.received');
    expect(events).toHaveLength(1);
    expect(events[0]!.data.object).toEqual(created.body);
  });

  it('records reviews by e-mail (creating the customer), anonymously, and defaults source and time', async () => {
    const byEmail = expectOk(
      await record({
        rating: 4,
        customer_email: 'new@example.com',
        source: 'google',
        received_at: '2026-11-18T14:00:00Z',
      }),
    );
    expect(byEmail.body.customer).toMatchObject({ email: 'new@example.com', name: 'new' });
    expect((await shop.events('customer.created')).map((e) => e.data.object.email)).toContain(
      'new@example.com',
    );

    const anonymous = expectOk(
      await record({
        rating: 1,
        comment: 'Late',
        source: 'google',
        received_at: '2026-11-18T14:30:00Z',
      }),
    );
    expect(anonymous.body).toMatchObject({ customer: null, job: null });

    const defaults = expectOk(await record({ rating: 2, received_at: '2026-11-01T03:00:00Z' }));
    expect(defaults.body.source).toBe('manual');
    const now = expectOk(await record({ rating: 3, source: 'facebook' }));
    expect(now.body.received_at).toBe('2026-11-18T15:00:00Z');
    // Move it to October so the dashboard has a last month.
    await server.ctx.db
      .updateTable('reviews')
      .set({ received_at: '2026-10-20T15:00:00Z' })
      .where('id', '=', now.body.id)
      .execute();
    await record({ rating: 5, source: 'google', received_at: '2026-11-16T03:00:00Z' });
    await record({ rating: 4, received_at: '2026-06-01T15:00:00Z' });
    await record({ rating: 2, source: 'google', received_at: '2026-07-01T15:00:00Z' });
  });

  it('refuses a bad rating, an unknown job and a job of another customer with 400 and param', async () => {
    const rating = await record({ rating: 6 });
    expectStatus(rating, 400);
    expect(rating.body.error.param).toBe('rating');
    const unknownJob = await record({ rating: 4, job_number: 'J-9999' });
    expectStatus(unknownJob, 400);
    expect(unknownJob.body.error.param).toBe('job_number');
    const otherCustomer = await record({
      rating: 4,
      job_number: jobNumber,
      customer_email: 'new@example.com',
    });
    expectStatus(otherCustomer, 400);
    expect(otherCustomer.body.error.param).toBe('job_number');
    expect(await shop.events('review.received')).toHaveLength(8);
  });

  it('lists reviews newest first with rating, source and date filters', async () => {
    const all = expectOk(await shop.portal('GET', '/reviews'));
    expect(all.body.data).toHaveLength(8);
    const ratings = async (query: string) =>
      okBody(await shop.portal('GET', `/reviews?${query}`)).data.map((r: { rating: number }) => r.rating);
    expect(await ratings('rating=5')).toEqual([5, 5]);
    expect(await ratings('source=facebook')).toEqual([3]);
    // 2026-11-01T03:00Z is still 31 October in Toronto.
    expect((await ratings('from=2026-11-01&to=2026-11-30')).sort()).toEqual([1, 4, 5, 5]);
    expect((await shop.portal('GET', '/reviews?rating=0')).status).toBe(400);
  });

  it('summarises ratings on the dashboard', async () => {
    const dashboard = await shop.portal('GET', '/reviews/dashboard');
    expectStatus(dashboard, 200);
    expect(dashboard.body).toMatchObject({
      object: 'review_dashboard',
      count: 8,
      average_rating: 3.25,
      distribution: { '1': 1, '2': 2, '3': 1, '4': 2, '5': 2 },
      this_month: { month: '2026-11', count: 4, average_rating: 3.75 },
      last_month: { month: '2026-10', count: 2, average_rating: 2.5 },
      by_source: [
        { source: 'google', count: 5, average_rating: 3.4 },
        { source: 'manual', count: 2, average_rating: 3 },
        { source: 'facebook', count: 1, average_rating: 3 },
      ],
    });
    expect(dashboard.body.recent.map((r: { received_at: string }) => r.received_at)).toEqual([
      '2026-11-18T14:30:00Z',
      '2026-11-18T14:00:00Z',
      '2026-11-17T15:00:00Z',
      '2026-11-16T03:00:00Z',
      '2026-11-01T03:00:00Z',
    ]);
    // Low ratings from the last 90 days; July's is too old to answer now.
    expect(
      dashboard.body.needs_response.map((r: { rating: number; comment: string | null }) => r.rating),
    ).toEqual([1, 2]);
  });

  it("counts reviews per week in the account's zone and compares with the weeks before", async () => {
    const velocity = await shop.portal('GET', '/reviews/velocity?weeks=4');
    expectStatus(velocity, 200);
    expect(velocity.body.weeks).toEqual([
      { week_start: '2026-10-26', count: 1, average_rating: 2 },
      { week_start: '2026-11-02', count: 0, average_rating: null },
      { week_start: '2026-11-09', count: 1, average_rating: 5 },
      { week_start: '2026-11-16', count: 3, average_rating: 3.33 },
    ]);
    expect(velocity.body.trend).toEqual({
      per_week: 1.25,
      previous_per_week: 0.25,
      change: 4,
      direction: 'up',
    });

    const defaults = expectOk(await shop.portal('GET', '/reviews/velocity'));
    expect(defaults.body.weeks).toHaveLength(12);
    expect(defaults.body.weeks.at(-1)!.week_start).toBe('2026-11-16');
    for (const weeks of ['0', '105', 'x']) {
      const bad = await shop.portal('GET', `/reviews/velocity?weeks=${weeks}`);
      expectStatus(bad, 400);
      expect(bad.body.error.param).toBe('weeks');
    }
  });

  it('answers an empty account with zero counts and null averages', async () => {
    const empty = await server.createAccount({ plan: 'basic' });
    const dashboard = expectOk(await empty.portal('GET', '/reviews/dashboard'));
    expect(dashboard.body).toMatchObject({ count: 0, average_rating: null, recent: [], needs_response: [] });
    const velocity = expectOk(await empty.portal('GET', '/reviews/velocity?weeks=2'));
    expect(velocity.body.trend).toEqual({
      per_week: 0,
      previous_per_week: 0,
      change: null,
      direction: 'flat',
    });
    const refused = await empty.portal('POST', '/reviews', { body: { rating: 5 } });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
  });
});
