import { sql } from 'kysely';
import { fromCents } from '../../../shared/money';
import {
  ANALYTICS_MAX_DAYS,
  type Analytics,
  type AnalyticsBucket,
  type AnalyticsQuery,
} from '../../../shared/schemas/overview';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { addDays } from '../../lib/clock';
import { getAccount } from '../accounts';
import { addMonths, bucketIndex, checkRange, monthStart, period, today, weekStart } from './periods';

type Interval = AnalyticsQuery['interval'];

interface Bucket {
  start: string;
  end: string;
}

/** Calendar buckets covering [from, to], the first and last clipped to the period. */
export function buckets(interval: Interval, from: string, to: string): Bucket[] {
  const next = (date: string) => (interval === 'month' ? addMonths(date, 1) : addDays(date, 7));
  const out: Bucket[] = [];
  for (
    let start = interval === 'month' ? monthStart(from) : weekStart(from);
    start <= to;
    start = next(start)
  ) {
    const last = addDays(next(start), -1);
    out.push({ start: start < from ? from : start, end: last > to ? to : last });
  }
  return out;
}

/** Per-bucket sums and counts of one measure, keyed by bucket index. */
type Totals = Map<number, { sum: number; count: number }>;

function toTotals(rows: Array<{ bucket: number; sum: number | null; count: number }>): Totals {
  return new Map(rows.map((r) => [Number(r.bucket), { sum: Number(r.sum ?? 0), count: Number(r.count) }]));
}

async function measure(db: Queryable, accountId: string, dayBounds: string[], instantBounds: string[]) {
  const first = instantBounds[0]!;
  const end = instantBounds[instantBounds.length - 1]!;
  const decidedAt = sql<string>`coalesce(accepted_at, converted_at, declined_at)`;
  const [revenue, invoiced, jobs, customers, quotes] = await Promise.all([
    db
      .selectFrom('payments')
      .select([
        bucketIndex('paid_at', instantBounds).as('bucket'),
        sql<number>`sum(amount_cents)`.as('sum'),
        sql<number>`count(*)`.as('count'),
      ])
      .where('account_id', '=', accountId)
      .where('paid_at', '>=', first)
      .where('paid_at', '<', end)
      .groupBy('bucket')
      .execute(),
    db
      .selectFrom('invoices')
      .select([
        bucketIndex('issue_date', dayBounds).as('bucket'),
        sql<number>`sum(total_cents)`.as('sum'),
        sql<number>`count(*)`.as('count'),
      ])
      .where('account_id', '=', accountId)
      .where('issue_date', '>=', dayBounds[0]!)
      .where('issue_date', '<', dayBounds[dayBounds.length - 1]!)
      .where('status', '!=', 'void')
      .groupBy('bucket')
      .execute(),
    db
      .selectFrom('jobs')
      .select([
        bucketIndex('completed_at', instantBounds).as('bucket'),
        sql<null>`null`.as('sum'),
        sql<number>`count(*)`.as('count'),
      ])
      .where('account_id', '=', accountId)
      .where('status', '=', 'completed')
      .where('completed_at', '>=', first)
      .where('completed_at', '<', end)
      .groupBy('bucket')
      .execute(),
    db
      .selectFrom('customers')
      .select([
        bucketIndex('created_at', instantBounds).as('bucket'),
        sql<null>`null`.as('sum'),
        sql<number>`count(*)`.as('count'),
      ])
      .where('account_id', '=', accountId)
      .where('created_at', '>=', first)
      .where('created_at', '<', end)
      .groupBy('bucket')
      .execute(),
    db
      .selectFrom('quotes')
      .select([
        bucketIndex(decidedAt, instantBounds).as('bucket'),
        sql<number>`sum(case when status in ('accepted', 'converted') then 1 else 0 end)`.as('sum'),
        sql<number>`count(*)`.as('count'),
      ])
      .where('account_id', '=', accountId)
      .where('status', 'in', ['accepted', 'converted', 'declined'])
      .where(decidedAt, '>=', first)
      .where(decidedAt, '<', end)
      .groupBy('bucket')
      .execute(),
  ]);
  return {
    revenue: toTotals(revenue),
    invoiced: toTotals(invoiced),
    jobs: toTotals(jobs),
    customers: toTotals(customers),
    quotes: toTotals(quotes),
  };
}

/** Default: the last 12 months through today. */
function defaultFrom(interval: Interval, to: string): string {
  const start = addMonths(to, -11);
  return interval === 'month' ? start : weekStart(start);
}

/** Series for the charts: money in, invoiced, work done, new customers and quote wins per week or month. */
export async function getAnalytics(
  ctx: AppContext,
  accountId: string,
  query: AnalyticsQuery,
): Promise<Analytics> {
  const { config } = await getAccount(ctx.db, accountId);
  const to = query.to ?? today(ctx, config.timezone);
  const from = query.from ?? defaultFrom(query.interval, to);
  checkRange(from, to, ANALYTICS_MAX_DAYS);
  const list = buckets(query.interval, from, to);
  const dayBounds = [...list.map((b) => b.start), addDays(to, 1)];
  const instantBounds = dayBounds.map((d) => period(d, d, config.timezone).start);
  const totals = await measure(ctx.db, accountId, dayBounds, instantBounds);

  const series: AnalyticsBucket[] = list.map((bucket, i) => {
    const get = (m: Totals) => m.get(i) ?? { sum: 0, count: 0 };
    const quotes = get(totals.quotes);
    return {
      start: bucket.start,
      end: bucket.end,
      revenue: fromCents(get(totals.revenue).sum),
      invoiced: fromCents(get(totals.invoiced).sum),
      invoices: get(totals.invoiced).count,
      jobs_completed: get(totals.jobs).count,
      new_customers: get(totals.customers).count,
      quotes_accepted: quotes.sum,
      quotes_decided: quotes.count,
      quote_acceptance_rate: quotes.count ? Math.round((quotes.sum / quotes.count) * 10_000) / 10_000 : null,
    };
  });
  return { object: 'analytics', currency: config.currency, interval: query.interval, from, to, series };
}
