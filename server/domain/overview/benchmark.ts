import { type RawBuilder, sql } from 'kysely';
import { fromCents } from '../../../shared/money';
import {
  BENCHMARK_BASELINE_PERIODS,
  BENCHMARK_MAX_DAYS,
  type Benchmark,
  type BenchmarkFigure,
  type BenchmarkQuery,
} from '../../../shared/schemas/overview';
import { addDays } from '../../../shared/time-zone';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { todayIn } from '../../lib/clock';
import { getAccount } from '../accounts';
import { bucketIndex, checkRange, localDateSql, period, spanDays } from './periods';
import { sumRanges, total } from './rollups';

const DEFAULT_DAYS = 30;
const PERIODS = BENCHMARK_BASELINE_PERIODS + 1;

type Key = BenchmarkFigure['key'];

interface Definition {
  label: string;
  unit: BenchmarkFigure['unit'];
  higherIsBetter: boolean;
  /** Decimal places the figure is shown with; a change smaller than that is "same". */
  places: number;
}

const DEFINITIONS: Record<Key, Definition> = {
  average_invoice: { label: 'Average invoice', unit: 'money', higherIsBetter: true, places: 2 },
  days_to_pay: { label: 'Days to pay', unit: 'days', higherIsBetter: false, places: 1 },
  quote_acceptance_rate: { label: 'Quote acceptance rate', unit: 'rate', higherIsBetter: true, places: 4 },
  repeat_customer_rate: { label: 'Repeat customer rate', unit: 'rate', higherIsBetter: true, places: 4 },
  average_rating: { label: 'Average rating', unit: 'rating', higherIsBetter: true, places: 2 },
  review_velocity: { label: 'Reviews per week', unit: 'per_week', higherIsBetter: true, places: 2 },
};

/** One value per period, oldest baseline period first, the period asked about last (index 6). */
type PerPeriod = Array<number | null>;

function round(value: number, places: number): number {
  const factor = 10 ** places;
  return Math.round(value * factor) / factor;
}

/** A ratio; null where the denominator is 0. */
function ratio(num: number, den: number): number | null {
  return den > 0 ? num / den : null;
}

/** Rows of (bucket, numerator, denominator) to a per-period ratio. */
function perPeriod(rows: Array<{ bucket: number; num: number | null; den: number }>): PerPeriod {
  return Array.from({ length: PERIODS }, (_, i) => {
    const row = rows.find((r) => Number(r.bucket) === i);
    return row ? ratio(Number(row.num ?? 0), Number(row.den)) : null;
  });
}

async function measure(
  db: Queryable,
  accountId: string,
  timeZone: string,
  days: { bounds: string[]; length: number },
  instants: string[],
): Promise<Record<Key, PerPeriod>> {
  const first = instants[0]!;
  const end = instants[instants.length - 1]!;
  const bucket = (value: string | RawBuilder<unknown>) => bucketIndex(value, instants).as('bucket');
  // Slots hold days to the UTC date of payment; a slot lies within one local date, so each
  // paid invoice shifts by that slot's local date minus its UTC date.
  const localShift = sql<number>`julianday(${localDateSql('slot', timeZone, new Date(first), new Date(end))}) - julianday(substr(slot, 1, 10))`;

  const [invoices, slots, reviews, firstReview, repeat] = await Promise.all([
    sumRanges(db, 'overview_days', accountId, days.bounds, {
      cents: total('invoiced_cents'),
      count: total('invoices'),
    }),
    sumRanges(db, 'overview_slots', accountId, instants, {
      paid: total('invoices_paid'),
      payDays: sql<number>`sum(CASE WHEN invoices_paid = 0 THEN 0 ELSE invoice_days_to_pay + invoices_paid * ${localShift} END)`,
      accepted: total('quotes_accepted'),
      declined: total('quotes_declined'),
    }),
    db
      .selectFrom('reviews')
      .select([bucket('received_at'), sql<number>`sum(rating)`.as('num'), sql<number>`count(*)`.as('den')])
      .where('account_id', '=', accountId)
      .where('received_at', '>=', first)
      .where('received_at', '<', end)
      .groupBy('bucket')
      .execute(),
    db
      .selectFrom('reviews')
      .select((eb) => eb.fn.min('received_at').as('first'))
      .where('account_id', '=', accountId)
      .executeTakeFirst(),
    // A customer served in a period is a repeat customer when that was not their only completed
    // job so far: two in the period, or an earlier one before it.
    sql<{ bucket: number; num: number; den: number }>`
      with served as (
        select ${bucketIndex('completed_at', instants)} as bucket, customer_id,
               count(*) as jobs, min(completed_at) as first_in_period
        from jobs
        where account_id = ${accountId} and status = 'completed'
          and completed_at >= ${first} and completed_at < ${end}
        group by bucket, customer_id
      )
      select bucket,
             sum(case when jobs >= 2 or exists (
               select 1 from jobs j where j.customer_id = served.customer_id and j.status = 'completed'
                 and j.completed_at < served.first_in_period
             ) then 1 else 0 end) as num,
             count(*) as den
      from served group by bucket`.execute(db),
  ]);

  const weeks = days.length / 7;
  // Periods that ended before the first review ever are "no history", not "zero reviews".
  const reviewSince = firstReview?.first ?? null;
  const velocity = Array.from({ length: PERIODS }, (_, i) => {
    if (reviewSince === null || instants[i + 1]! <= reviewSince) return null;
    const row = reviews.find((r) => Number(r.bucket) === i);
    return Number(row?.den ?? 0) / weeks;
  });
  return {
    average_invoice: invoices.map((d) => {
      const average = ratio(d.cents, d.count);
      return average === null ? null : fromCents(Math.round(average));
    }),
    days_to_pay: slots.map((s) => ratio(s.payDays, s.paid)),
    quote_acceptance_rate: slots.map((s) => ratio(s.accepted, s.accepted + s.declined)),
    repeat_customer_rate: perPeriod(repeat.rows),
    average_rating: perPeriod(reviews),
    review_velocity: velocity,
  };
}

export function compare(key: Key, values: PerPeriod): BenchmarkFigure {
  const def = DEFINITIONS[key];
  const current = values[PERIODS - 1] ?? null;
  const history = values.slice(0, PERIODS - 1).filter((v): v is number => v !== null);
  const value = current === null ? null : round(current, def.places);
  const baseline = history.length
    ? round(history.reduce((sum, v) => sum + v, 0) / history.length, def.places)
    : null;
  let change: BenchmarkFigure['change'] = null;
  let direction: BenchmarkFigure['direction'] = null;
  if (value !== null && baseline !== null) {
    const absolute = round(value - baseline, def.places);
    change = { absolute, percent: baseline === 0 ? null : round((absolute / baseline) * 100, 1) };
    direction = absolute === 0 ? 'same' : absolute > 0 === def.higherIsBetter ? 'better' : 'worse';
  }
  return {
    key,
    label: def.label,
    unit: def.unit,
    higher_is_better: def.higherIsBetter,
    value,
    baseline,
    change,
    direction,
  };
}

/**
 * The business against its own recent past: each key figure for the period next to its average
 * over the six periods of the same length just before it. No outside or invented comparisons.
 */
export async function getBenchmark(
  ctx: AppContext,
  accountId: string,
  query: BenchmarkQuery,
): Promise<Benchmark> {
  const { config } = await getAccount(ctx.db, accountId);
  const todayDate = todayIn(ctx.clock, config.timezone);
  const to = query.to ?? (query.from && query.from > todayDate ? query.from : todayDate);
  const from = query.from ?? addDays(to, 1 - DEFAULT_DAYS);
  checkRange(from, to, BENCHMARK_MAX_DAYS);
  const length = spanDays(from, to);
  const bounds = [
    ...Array.from({ length: PERIODS }, (_, i) => addDays(from, (i - BENCHMARK_BASELINE_PERIODS) * length)),
    addDays(to, 1),
  ];
  const instants = bounds.map((d) => period(d, d, config.timezone).start);
  const values = await measure(ctx.db, accountId, config.timezone, { bounds, length }, instants);
  return {
    object: 'benchmark',
    currency: config.currency,
    from,
    to,
    baseline_from: bounds[0]!,
    baseline_to: addDays(from, -1),
    figures: (Object.keys(DEFINITIONS) as Key[]).map((key) => compare(key, values[key])),
  };
}
