import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { seedOverview } from './overview-seed';

/**
 * Overview figures over a small, hand-checked data set (overview-seed.ts). The account is in
 * America/Toronto and "now" is 2026-11-15 10:00 local.
 */

let server: TestServer;
let shop: TestAccount;
const clock = manualClock('2026-11-15T15:00:00Z');

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount({ plan: 'basic' });
  await seedOverview(server.ctx.db, shop.clientId);
});
afterAll(() => server.stop());

describe('GET /dashboard', () => {
  it('adds up the money, work and reviews of today and this month in the account time zone', async () => {
    const res = await shop.portal('GET', '/dashboard');
    expectStatus(res, 200);
    const d = res.body;
    expect(d.today).toBe('2026-11-15');
    expect(d.timezone).toBe('America/Toronto');
    expect(d.revenue_this_month).toEqual({ amount: 90, count: 2 });
    expect(d.outstanding).toEqual({ amount: 300, count: 2 });
    expect(d.overdue).toEqual({ amount: 100, count: 1 });
    expect(d.open_quotes).toEqual({ amount: 500, count: 1 });
    expect(d.new_customers_this_month).toBe(1);
    expect(d.average_rating).toBe(4);
    expect(d.review_count).toBe(3);
    expect(d.recent_reviews.map((r: { rating: number }) => r.rating)).toEqual([5, 3, 4]);
    expect(d.recent_reviews[1]!.customer).toMatchObject({ name: 'Ada', email: 'ada@example.com' });
    expect(d.recent_reviews[0]!.customer).toBeNull();
  });

  it("lists today's jobs with customer and assignees, and the next 7 days' jobs", async () => {
    const d = okBody(await shop.portal('GET', '/dashboard'));
    expect(d.jobs_today).toHaveLength(1);
    expect(d.jobs_today[0]).toMatchObject({
      job_number: 'J-0001',
      status: 'scheduled',
      price: 120,
      customer: { name: 'Ada', email: 'ada@example.com' },
      assignees: ['Maria'],
    });
    expect(d.jobs_upcoming.map((j: { job_number: string }) => j.job_number)).toEqual(['J-0003', 'J-0004']);
  });

  it('gives six months of revenue, oldest first', async () => {
    const d = okBody(await shop.portal('GET', '/dashboard'));
    expect(d.revenue_by_month).toEqual([
      { month: '2026-06', revenue: 0 },
      { month: '2026-07', revenue: 0 },
      { month: '2026-08', revenue: 0 },
      { month: '2026-09', revenue: 0 },
      { month: '2026-10', revenue: 80 },
      { month: '2026-11', revenue: 90 },
    ]);
  });
});

describe('GET /report', () => {
  it('defaults to this month', async () => {
    const res = await shop.portal('GET', '/report');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({
      from: '2026-11-01',
      to: '2026-11-30',
      payments: { total: 90, count: 2 },
      invoiced: { total: 290, count: 2 },
      average_invoice: 145,
      jobs_completed: 1,
      new_customers: 1,
      by_payment_method: [{ method: 'card', total: 90, count: 2 }],
    });
    expect(
      res.body.top_customers.map((t: { customer: { name: string }; paid: number }) => [
        t.customer.name,
        t.paid,
      ]),
    ).toEqual([
      ['Bob', 50],
      ['Cy', 40],
    ]);
  });

  it('reports a chosen period, counting a payment made late on 31 October local time in October', async () => {
    const res = expectOk(await shop.portal('GET', '/report?from=2026-10-01&to=2026-10-31'));
    expect(res.body).toMatchObject({
      payments: { total: 80, count: 1 },
      invoiced: { total: 180, count: 2 },
      average_invoice: 90,
      jobs_completed: 1,
      new_customers: 2,
      by_payment_method: [{ method: 'cash', total: 80, count: 1 }],
    });
    expect(res.body.top_customers[0]).toMatchObject({ customer: { name: 'Ada' }, paid: 80, payments: 1 });
  });

  it('refuses to before from, a span over 366 days and a malformed date', async () => {
    const backwards = await shop.portal('GET', '/report?from=2026-11-02&to=2026-11-01');
    expectStatus(backwards, 400);
    expect(backwards.body.error).toMatchObject({ code: 'validation_failed', param: 'to' });
    const long = await shop.portal('GET', '/report?from=2025-01-01&to=2026-01-02');
    expectStatus(long, 400);
    expect(long.body.error.param).toBe('to');
    const exactYear = await shop.portal('GET', '/report?from=2025-01-01&to=2026-01-01');
    expectStatus(exactYear, 200);
    const malformed = await shop.portal('GET', '/report?from=2026-13-01');
    expectStatus(malformed, 400);
    expect(malformed.body.error.param).toBe('from');
  });
});

describe('GET /analytics', () => {
  it('buckets by local month with the quote acceptance rate', async () => {
    const res = await shop.portal('GET', '/analytics?interval=month&from=2026-10-01&to=2026-11-30');
    expectStatus(res, 200);
    expect(res.body.series).toEqual([
      {
        start: '2026-10-01',
        end: '2026-10-31',
        revenue: 80,
        invoiced: 180,
        invoices: 2,
        jobs_completed: 1,
        new_customers: 2,
        quotes_accepted: 1,
        quotes_decided: 1,
        quote_acceptance_rate: 1,
      },
      {
        start: '2026-11-01',
        end: '2026-11-30',
        revenue: 90,
        invoiced: 290,
        invoices: 2,
        jobs_completed: 1,
        new_customers: 1,
        quotes_accepted: 1,
        quotes_decided: 2,
        quote_acceptance_rate: 0.5,
      },
    ]);
  });

  it('defaults to 12 months through today, empty months included with zeros', async () => {
    const res = expectOk(await shop.portal('GET', '/analytics'));
    expect(res.body).toMatchObject({ interval: 'month', from: '2025-12-01', to: '2026-11-15' });
    expect(res.body.series).toHaveLength(12);
    expect(res.body.series[0]).toMatchObject({
      start: '2025-12-01',
      end: '2025-12-31',
      revenue: 0,
      invoices: 0,
      quote_acceptance_rate: null,
    });
    expect(res.body.series[11]).toMatchObject({ start: '2026-11-01', end: '2026-11-15', revenue: 90 });
  });

  it('buckets by weeks starting on Monday, clipped to the period', async () => {
    const res = expectOk(await shop.portal('GET', '/analytics?interval=week&from=2026-10-28&to=2026-11-10'));
    expect(
      res.body.series.map((b: { start: string; end: string; revenue: number }) => [
        b.start,
        b.end,
        b.revenue,
      ]),
    ).toEqual([
      ['2026-10-28', '2026-11-01', 80],
      ['2026-11-02', '2026-11-08', 50],
      ['2026-11-09', '2026-11-10', 40],
    ]);
  });

  it('refuses an unknown interval and a backwards period', async () => {
    const interval = await shop.portal('GET', '/analytics?interval=day');
    expectStatus(interval, 400);
    expect(interval.body.error.param).toBe('interval');
    const backwards = expectError(await shop.portal('GET', '/analytics?from=2026-11-02&to=2026-11-01'));
    expect(backwards.body.error.param).toBe('to');
  });
});

describe('GET /benchmark', () => {
  it('compares each figure with the average of the six periods before', async () => {
    const res = await shop.portal('GET', '/benchmark?from=2026-11-01&to=2026-11-14');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ baseline_from: '2026-08-09', baseline_to: '2026-10-31' });
    const figures = Object.fromEntries(res.body.figures.map((f) => [f.key, f] as const));
    expect(figures.average_invoice).toMatchObject({
      value: 145,
      baseline: 90,
      change: { absolute: 55, percent: 61.1 },
      direction: 'better',
    });
    // Issued 5 Oct, paid 31 Oct local time (1 Nov in UTC): 26 days, not 27.
    expect(figures.days_to_pay).toMatchObject({
      value: 8,
      baseline: 26,
      change: { absolute: -18 },
      direction: 'better',
    });
    expect(figures.quote_acceptance_rate).toMatchObject({ value: 0.5, baseline: 1, direction: 'worse' });
    expect(figures.repeat_customer_rate).toMatchObject({
      value: 1,
      baseline: 0,
      change: { absolute: 1, percent: null },
      direction: 'better',
    });
    expect(figures.average_rating).toMatchObject({ value: 4, baseline: 4, direction: 'same' });
    expect(figures.review_velocity).toMatchObject({ value: 1, baseline: 0.5, direction: 'better' });
  });

  it('says baseline null where the business has no history', async () => {
    const fresh = await server.createAccount({ business: 'New Shop' });
    const res = await fresh.portal('GET', '/benchmark');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ from: '2026-10-17', to: '2026-11-15' });
    for (const figure of res.body.figures) {
      expect(figure).toMatchObject({ value: null, baseline: null, change: null, direction: null });
    }
  });

  it('refuses a period over 366 days', async () => {
    const res = await shop.portal('GET', '/benchmark?from=2024-01-01&to=2026-01-01');
    expectStatus(res, 400);
    expect(res.body.error).toMatchObject({ code: 'validation_failed', param: 'to' });
  });
});

describe('GET /customers/{email} history', () => {
  it('returns the customer with invoices (overdue computed), quotes, jobs, reviews, messages and totals', async () => {
    const res = await shop.portal('GET', '/customers/ada%40example.com');
    expectStatus(res, 200);
    expect(res.body).toMatchObject({ object: 'customer', email: 'ada@example.com' });
    const history = res.body.history;
    expect(history.invoices.map((i: { number: string; status: string }) => [i.number, i.status])).toEqual([
      ['INV-0003', 'paid'],
      ['INV-0001', 'overdue'],
    ]);
    expect(history.invoices[1]).toMatchObject({ total: 100, balance: 100, due_date: '2026-10-31' });
    expect(history.quotes.map((q: { number: string; status: string }) => [q.number, q.status])).toEqual([
      ['Q-0005', 'converted'],
      ['Q-0004', 'declined'],
      ['Q-0003', 'accepted'],
      ['Q-0002', 'expired'],
      ['Q-0001', 'sent'],
    ]);
    expect(history.jobs.map((j: { job_number: string }) => j.job_number)).toEqual([
      'J-0008',
      'J-0007',
      'J-0006',
      'J-0001',
    ]);
    expect(history.reviews).toEqual([
      expect.objectContaining({ rating: 3, comment: '3 stars', received_at: '2026-11-02T12:00:00Z' }),
    ]);
    expect(history.messages).toEqual([
      expect.objectContaining({ kind: 'invoice', subject: 'Invoice INV-0001', status: 'sent' }),
    ]);
    expect(history.totals).toEqual({ invoiced: 180, paid: 80, outstanding: 100 });
  });

  it('answers 404 for an unknown customer', async () => {
    const res = await shop.portal('GET', '/customers/nobody%40example.com');
    expectStatus(res, 404);
    expect(res.body.error.code).toBe('not_found');
  });
});
