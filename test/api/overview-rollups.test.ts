import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Db } from '../../server/db/database';
import { compare } from '../../server/domain/overview/benchmark';
import { manualClock } from '../../server/lib/clock';
import { fromCents } from '../../shared/money';
import type { AnalyticsBucket, BenchmarkFigure } from '../../shared/schemas/overview';
import { addDays, dateInZone } from '../../shared/time-zone';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { seedRandom } from './overview-random-rows';

/**
 * The overview figures come from trigger-kept rollups; these tests hold them to a plain
 * computation over the raw rows, which buckets each row by its local date (Intl), knowing nothing
 * of slots: first through the real write routes, then on random rows clustered around local
 * midnights in half-hour and 45-minute offset zones.
 */

let server: TestServer;
const clock = manualClock('2026-11-02T03:20:00Z');

beforeAll(async () => {
  server = await startTestServer({ clock });
});
afterAll(() => server.stop());

// ---------- the raw-row oracle ----------

interface Raw {
  payments: Array<{ local: string; cents: number }>;
  invoiced: Array<{ day: string; cents: number }>;
  paid: Array<{ local: string; days: number }>;
  jobs: string[];
  customers: string[];
  quotes: Array<{ local: string; accepted: boolean }>;
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

async function raw(db: Db, accountId: string, timeZone: string): Promise<Raw> {
  const local = (ts: string) => dateInZone(new Date(ts), timeZone);
  const [payments, invoices, jobs, customers, quotes] = await Promise.all([
    db.selectFrom('payments').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('invoices').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('jobs').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('customers').selectAll().where('account_id', '=', accountId).execute(),
    db.selectFrom('quotes').selectAll().where('account_id', '=', accountId).execute(),
  ]);
  return {
    payments: payments.map((p) => ({ local: local(p.paid_at), cents: p.amount_cents })),
    invoiced: invoices
      .filter((i) => i.status !== 'void')
      .map((i) => ({ day: i.issue_date, cents: i.total_cents })),
    paid: invoices
      .filter((i) => i.status === 'paid' && i.paid_at)
      .map((i) => ({ local: local(i.paid_at!), days: daysBetween(i.issue_date, local(i.paid_at!)) })),
    jobs: jobs.filter((j) => j.status === 'completed' && j.completed_at).map((j) => local(j.completed_at!)),
    customers: customers.map((c) => local(c.created_at)),
    quotes: quotes.flatMap((q) => {
      const decided = q.accepted_at ?? q.converted_at ?? q.declined_at;
      if (!decided || !['accepted', 'converted', 'declined'].includes(q.status)) return [];
      return [{ local: local(decided), accepted: q.status !== 'declined' }];
    }),
  };
}

const within = (day: string, range: { start: string; end: string }) => day >= range.start && day <= range.end;
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

function expectedSeries(rows: Raw, ranges: Array<{ start: string; end: string }>): AnalyticsBucket[] {
  return ranges.map((range) => {
    const quotes = rows.quotes.filter((q) => within(q.local, range));
    const accepted = quotes.filter((q) => q.accepted).length;
    const invoiced = rows.invoiced.filter((i) => within(i.day, range));
    return {
      start: range.start,
      end: range.end,
      revenue: fromCents(sum(rows.payments.filter((p) => within(p.local, range)).map((p) => p.cents))),
      invoiced: fromCents(sum(invoiced.map((i) => i.cents))),
      invoices: invoiced.length,
      jobs_completed: rows.jobs.filter((d) => within(d, range)).length,
      new_customers: rows.customers.filter((d) => within(d, range)).length,
      quotes_accepted: accepted,
      quotes_decided: quotes.length,
      quote_acceptance_rate: quotes.length ? Math.round((accepted / quotes.length) * 10_000) / 10_000 : null,
    };
  });
}

/** Month and week analytics over the given period equal the oracle's, bucket for bucket. */
async function expectAnalyticsMatchRaw(account: TestAccount, timeZone: string, from: string, to: string) {
  const rows = await raw(server.ctx.db, account.clientId, timeZone);
  for (const interval of ['month', 'week']) {
    const res = await account.portal('GET', `/analytics?interval=${interval}&from=${from}&to=${to}`);
    expectStatus(res, 200);
    expect(res.body.series).toEqual(expectedSeries(rows, res.body.series));
  }
  return rows;
}

// ---------- through the write routes ----------

describe('analytics through the write routes (America/St_Johns)', () => {
  const zone = 'America/St_Johns';
  let shop: TestAccount;
  const month = async (start: string) => {
    const res = expectOk(await shop.portal('GET', '/analytics?interval=month&from=2026-10-01&to=2026-11-30'));
    return res.body.series.find((b: AnalyticsBucket) => b.start === start) as AnalyticsBucket;
  };
  const check = () => expectAnalyticsMatchRaw(shop, zone, '2026-10-01', '2026-11-30');

  beforeAll(async () => {
    shop = await server.createAccount({ plan: 'platform', apiPlan: 'growth' });
    expect((await shop.portal('PUT', '/config', { body: { timezone: zone } })).status).toBe(200);
  });

  it('counts a new draft and its new customer on the local date (1 Nov, though 2 Nov in UTC)', async () => {
    const res = await shop.portal('POST', '/invoices/create', {
      body: {
        customer_email: 'ada@example.com',
        items: [{ description: 'Deep clean', quantity: 1, unit_price: 100 }],
        taxes: [],
      },
    });
    expectStatus(res, 201);
    expect(res.body.issue_date).toBe('2026-11-01');
    expect(await month('2026-11-01')).toMatchObject({ invoiced: 100, invoices: 1, new_customers: 1 });
    await check();
  });

  it('follows a draft edit that changes the total', async () => {
    const res = await shop.portal('PATCH', '/invoices/INV-0001', {
      body: { items: [{ description: 'Deep clean', quantity: 2, unit_price: 125 }] },
    });
    expectStatus(res, 200);
    expect(await month('2026-11-01')).toMatchObject({ invoiced: 250, invoices: 1 });
    await check();
  });

  it('counts payments in the local month they were made', async () => {
    const october = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'ada@example.com',
          items: [{ description: 'Windows', quantity: 1, unit_price: 50 }],
          taxes: [],
          issue_date: '2026-10-30',
        },
      }),
    );
    expect((await shop.portal('POST', `/invoices/${october.body.number}/mark-sent`)).status).toBe(200);
    // 31 October 23:30 in St John's (daylight time, -2:30), though 1 November in UTC.
    const early = await shop.portal('POST', `/invoices/${october.body.number}/paid`, {
      body: { method: 'card', paid_at: '2026-11-01T02:00:00Z' },
    });
    expectStatus(early, 200);
    expect((await shop.portal('POST', '/invoices/INV-0001/mark-sent')).status).toBe(200);
    const full = await shop.portal('POST', '/invoices/INV-0001/paid', { body: { method: 'cash' } });
    expectStatus(full, 200);
    expect(full.body.status).toBe('paid');
    expect(await month('2026-10-01')).toMatchObject({ revenue: 50, invoiced: 50 });
    expect(await month('2026-11-01')).toMatchObject({ revenue: 250, invoiced: 250 });
    await check();
  });

  it('drops a voided invoice from the invoiced figures', async () => {
    const created = await shop.portal('POST', '/invoices/create', {
      body: {
        customer_email: 'bob@example.com',
        items: [{ description: 'Windows', quantity: 1, unit_price: 80 }],
      },
    });
    expectStatus(created, 201);
    expect(await month('2026-11-01')).toMatchObject({ invoiced: 330, invoices: 2 });
    const voided = await shop.portal('POST', `/invoices/${created.body.number}/void`);
    expectStatus(voided, 200);
    expect(await month('2026-11-01')).toMatchObject({ invoiced: 250, invoices: 1 });
    await check();
  });

  it('counts a completed job once, on the local date it was completed', async () => {
    // 00:05 on Monday 2 November local time: the next week.
    clock.set('2026-11-02T03:35:00Z');
    const job = await shop.portal('POST', '/jobs/create', {
      body: { customer_email: 'ada@example.com', title: 'Oven clean' },
    });
    expectStatus(job, 201);
    expect((await shop.portal('POST', `/jobs/${job.body.job_number}/complete`)).status).toBe(200);
    const weeks = expectOk(
      await shop.portal('GET', '/analytics?interval=week&from=2026-10-26&to=2026-11-08'),
    );
    expect(
      weeks.body.series.map((b: AnalyticsBucket) => [b.start, b.jobs_completed, b.new_customers]),
    ).toEqual([
      ['2026-10-26', 0, 2],
      ['2026-11-02', 1, 0],
    ]);
    await check();
  });

  it('counts a quote accepted then converted once, as accepted, and a declined one as decided', async () => {
    const create = (email: string) =>
      shop.portal('POST', '/quotes/create', {
        body: { customer_email: email, items: [{ description: 'Carpets', quantity: 1, unit_price: 300 }] },
      });
    const won = await create('ada@example.com');
    expectStatus(won, 201);
    for (const step of ['mark-sent', 'accept', 'convert']) {
      const res = await shop.portal('POST', `/quotes/${won.body.number}/${step}`);
      expect(res.status, step).toBeLessThan(300);
    }
    expect(await month('2026-11-01')).toMatchObject({ quotes_accepted: 1, quotes_decided: 1 });
    const lost = expectOk(await create('bob@example.com'));
    await shop.portal('POST', `/quotes/${lost.body.number}/mark-sent`);
    expect((await shop.portal('POST', `/quotes/${lost.body.number}/decline`)).status).toBe(200);
    expect(await month('2026-11-01')).toMatchObject({
      quotes_accepted: 1,
      quotes_decided: 2,
      quote_acceptance_rate: 0.5,
    });
    await check();
  });

  it('forgets a deleted customer', async () => {
    const created = await shop.v1('POST', '/clients', { body: { email: 'cy@example.com', name: 'Cy' } });
    expectStatus(created, 201);
    expect(await month('2026-11-01')).toMatchObject({ new_customers: 3 });
    expect((await shop.v1('DELETE', `/clients/${created.body.id}`)).status).toBe(200);
    expect(await month('2026-11-01')).toMatchObject({ new_customers: 2 });
    await check();
  });
});

// ---------- random rows around local midnights (overview-random-rows.ts) ----------

describe.each([
  ['America/St_Johns', 11],
  ['Asia/Kathmandu', 12],
])('overview on random rows in %s', (zone, seed) => {
  let shop: TestAccount;
  beforeAll(async () => {
    clock.set('2026-11-15T15:00:00Z');
    shop = await server.createAccount({ plan: 'platform' });
    expect((await shop.portal('PUT', '/config', { body: { timezone: zone } })).status).toBe(200);
    await seedRandom(server.ctx.db, shop.clientId, zone, seed);
  });

  it('buckets analytics by month and week exactly like the raw rows', async () => {
    const rows = await expectAnalyticsMatchRaw(shop, zone, '2025-11-01', '2026-11-15');
    expect(rows.payments.length).toBeGreaterThan(50);
    // Clipped buckets that start and end mid-week and mid-month.
    await expectAnalyticsMatchRaw(shop, zone, '2026-03-04', '2026-06-17');
    const byDefault = expectOk(await shop.portal('GET', '/analytics'));
    expect(byDefault.body.series).toEqual(expectedSeries(rows, byDefault.body.series));
  });

  it('gives the dashboard the same months as the raw rows', async () => {
    const rows = await raw(server.ctx.db, shop.clientId, zone);
    const d = okBody(await shop.portal('GET', '/dashboard'));
    const inMonth = (month: string) => (local: string) => local.startsWith(month);
    expect(d.revenue_by_month).toEqual(
      ['2026-06', '2026-07', '2026-08', '2026-09', '2026-10', '2026-11'].map((month) => ({
        month,
        revenue: fromCents(sum(rows.payments.filter((p) => inMonth(month)(p.local)).map((p) => p.cents))),
      })),
    );
    const november = rows.payments.filter((p) => p.local.startsWith('2026-11'));
    expect(d.revenue_this_month).toEqual({
      amount: fromCents(sum(november.map((p) => p.cents))),
      count: november.length,
    });
    expect(d.new_customers_this_month).toBe(rows.customers.filter(inMonth('2026-11')).length);
  });

  it('gives the benchmark the same days to pay, average invoice and acceptance rate as the raw rows', async () => {
    const rows = await raw(server.ctx.db, shop.clientId, zone);
    const res = await shop.portal('GET', '/benchmark?from=2026-10-01&to=2026-10-30');
    expectStatus(res, 200);
    const periods = Array.from({ length: 7 }, (_, i) => ({
      start: addDays('2026-10-01', (i - 6) * 30),
      end: addDays('2026-10-01', (i - 5) * 30 - 1),
    }));
    const ratio = (num: number, den: number) => (den ? num / den : null);
    const expected: Record<string, Array<number | null>> = {
      days_to_pay: periods.map((p) => {
        const paid = rows.paid.filter((i) => within(i.local, p));
        return ratio(sum(paid.map((i) => i.days)), paid.length);
      }),
      average_invoice: periods.map((p) => {
        const issued = rows.invoiced.filter((i) => within(i.day, p));
        const average = ratio(sum(issued.map((i) => i.cents)), issued.length);
        return average === null ? null : fromCents(Math.round(average));
      }),
      quote_acceptance_rate: periods.map((p) => {
        const decided = rows.quotes.filter((q) => within(q.local, p));
        return ratio(decided.filter((q) => q.accepted).length, decided.length);
      }),
    };
    expect(expected.days_to_pay!.filter((v) => v !== null).length).toBeGreaterThan(4);
    for (const [key, values] of Object.entries(expected)) {
      const figure = res.body.figures.find((f: BenchmarkFigure) => f.key === key);
      expect(figure, key).toEqual(compare(key as BenchmarkFigure['key'], values));
    }
  });
});
