import { fromCents } from '../../../shared/money';
import {
  ANALYTICS_MAX_DAYS,
  type Analytics,
  type AnalyticsBucket,
  type AnalyticsQuery,
} from '../../../shared/schemas/overview';
import { addDays } from '../../../shared/time-zone';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { todayIn } from '../../lib/clock';
import { getAccount } from '../accounts';
import { addMonths, checkRange, monthStart, period, weekStart } from './periods';
import { sumRanges, total } from './rollups';

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

/** Per-bucket figures from the rollups: instants bound the slot sums, local dates the invoiced ones. */
async function measure(db: Queryable, accountId: string, dayBounds: string[], instantBounds: string[]) {
  const [slots, days] = await Promise.all([
    sumRanges(db, 'overview_slots', accountId, instantBounds, {
      revenue: total('payments_cents'),
      jobs: total('jobs_completed'),
      customers: total('new_customers'),
      accepted: total('quotes_accepted'),
      declined: total('quotes_declined'),
    }),
    sumRanges(db, 'overview_days', accountId, dayBounds, {
      invoiced: total('invoiced_cents'),
      invoices: total('invoices'),
    }),
  ]);
  return slots.map((slot, i) => ({ ...slot, ...days[i]! }));
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
  const to = query.to ?? todayIn(ctx.clock, config.timezone);
  const from = query.from ?? defaultFrom(query.interval, to);
  checkRange(from, to, ANALYTICS_MAX_DAYS);
  const list = buckets(query.interval, from, to);
  const dayBounds = [...list.map((b) => b.start), addDays(to, 1)];
  const instantBounds = dayBounds.map((d) => period(d, d, config.timezone).start);
  const totals = await measure(ctx.db, accountId, dayBounds, instantBounds);

  const series: AnalyticsBucket[] = list.map((bucket, i) => {
    const t = totals[i]!;
    const decided = t.accepted + t.declined;
    return {
      start: bucket.start,
      end: bucket.end,
      revenue: fromCents(t.revenue),
      invoiced: fromCents(t.invoiced),
      invoices: t.invoices,
      jobs_completed: t.jobs,
      new_customers: t.customers,
      quotes_accepted: t.accepted,
      quotes_decided: decided,
      quote_acceptance_rate: decided ? Math.round((t.accepted / decided) * 10_000) / 10_000 : null,
    };
  });
  return { object: 'analytics', currency: config.currency, interval: query.interval, from, to, series };
}
