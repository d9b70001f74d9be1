import { sql } from 'kysely';
import { fromCents } from '../../../shared/money';
import type { JobStatus } from '../../../shared/schemas/job';
import type { Dashboard, DashboardJob, ReviewSummary } from '../../../shared/schemas/overview';
import { addDays } from '../../../shared/time-zone';
import type { AppContext } from '../../context';
import type { Queryable } from '../../db/database';
import { todayIn } from '../../lib/clock';
import { getAccount } from '../accounts';
import { owingSql } from '../invoice-status';
import { jobsStartingBetween, NOT_CANCELLED } from '../scheduled-jobs';
import { addMonths, period } from './periods';
import { sumRanges, total } from './rollups';

/** The dashboard lists at most this many jobs per list; a busier week is what the calendar is for. */
const JOB_LIST_LIMIT = 100;
const RECENT_REVIEWS = 5;
const REVENUE_MONTHS = 6;

/** What lies ahead is work still to do: a visit finished early is not "coming up". */
const STILL_TO_DO: readonly JobStatus[] = ['scheduled', 'in_progress'];

async function jobsStarting(
  db: Queryable,
  accountId: string,
  start: string,
  end: string,
  statuses: readonly JobStatus[],
): Promise<DashboardJob[]> {
  const rows = await jobsStartingBetween(db, accountId, {
    start,
    end,
    statuses,
    limit: JOB_LIST_LIMIT,
  });
  return rows.map((row) => ({
    id: row.id,
    job_number: row.number,
    title: row.title,
    status: row.status,
    scheduled_start: row.scheduled_start,
    scheduled_end: row.scheduled_end,
    address: row.address,
    price: row.price_cents === null ? null : fromCents(row.price_cents),
    customer: { id: row.customer_id, name: row.customer_name, email: row.customer_email },
    assignees: row.assignees.map((a) => a.name),
  }));
}

export async function recentReviews(
  db: Queryable,
  accountId: string,
  limit: number,
): Promise<ReviewSummary[]> {
  const rows = await db
    .selectFrom('reviews as r')
    .leftJoin('customers as c', 'c.id', 'r.customer_id')
    .select([
      'r.id',
      'r.rating',
      'r.comment',
      'r.source',
      'r.received_at',
      'c.id as customer_id',
      'c.name as customer_name',
      'c.email as customer_email',
    ])
    .where('r.account_id', '=', accountId)
    .orderBy('r.received_at', 'desc')
    .orderBy('r.id', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    id: row.id,
    rating: row.rating,
    comment: row.comment,
    source: row.source,
    customer:
      row.customer_id === null
        ? null
        : { id: row.customer_id, name: row.customer_name ?? '', email: row.customer_email ?? '' },
    received_at: row.received_at,
  }));
}

/** Sums of balances of unpaid, sent invoices: all of them, and those past their due date. */
async function receivables(db: Queryable, accountId: string, todayDate: string) {
  const balance = sql<number>`i.total_cents - i.amount_paid_cents`;
  const row = await db
    .selectFrom('invoices as i')
    .select([
      sql<number>`coalesce(sum(${balance}), 0)`.as('outstanding'),
      sql<number>`count(*)`.as('outstanding_count'),
      sql<number>`coalesce(sum(case when i.due_date < ${todayDate} then ${balance} else 0 end), 0)`.as(
        'overdue',
      ),
      sql<number>`coalesce(sum(case when i.due_date < ${todayDate} then 1 else 0 end), 0)`.as(
        'overdue_count',
      ),
    ])
    .where('i.account_id', '=', accountId)
    .where(owingSql)
    .executeTakeFirstOrThrow();
  return {
    outstanding: { amount: fromCents(Number(row.outstanding)), count: Number(row.outstanding_count) },
    overdue: { amount: fromCents(Number(row.overdue)), count: Number(row.overdue_count) },
  };
}

/**
 * Money in and new customers for each of the last months, oldest first, this month last; all are
 * sums of the overview rollups.
 */
async function months(db: Queryable, accountId: string, todayDate: string, timeZone: string) {
  const starts = Array.from({ length: REVENUE_MONTHS }, (_, i) =>
    addMonths(todayDate, i - (REVENUE_MONTHS - 1)),
  );
  const bounds = [...starts, addMonths(todayDate, 1)].map((m) => period(m, m, timeZone).start);
  const sums = await sumRanges(db, 'overview_slots', accountId, bounds, {
    cents: total('payments_cents'),
    payments: total('payments'),
    customers: total('new_customers'),
  });
  return sums.map((sum, i) => ({ month: starts[i]!.slice(0, 7), ...sum }));
}

/** The owner's first screen: today's work, money in and owed, open quotes, new customers and reviews. */
export async function getDashboard(ctx: AppContext, accountId: string): Promise<Dashboard> {
  const { config } = await getAccount(ctx.db, accountId);
  const timeZone = config.timezone;
  const todayDate = todayIn(ctx.clock, timeZone);
  const day = period(todayDate, todayDate, timeZone);
  const week = period(addDays(todayDate, 1), addDays(todayDate, 7), timeZone);
  const db = ctx.db;

  const [jobsToday, jobsUpcoming, money, quotes, rating, reviews, series] = await Promise.all([
    jobsStarting(db, accountId, day.start, day.end, NOT_CANCELLED),
    jobsStarting(db, accountId, week.start, week.end, STILL_TO_DO),
    receivables(db, accountId, todayDate),
    db
      .selectFrom('quotes')
      .select([sql<number>`coalesce(sum(total_cents), 0)`.as('cents'), sql<number>`count(*)`.as('count')])
      .where('account_id', '=', accountId)
      .where('status', '=', 'sent')
      .where('valid_until', '>=', todayDate)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('reviews')
      .select([sql<number | null>`avg(rating)`.as('average'), sql<number>`count(*)`.as('count')])
      .where('account_id', '=', accountId)
      .executeTakeFirstOrThrow(),
    recentReviews(db, accountId, RECENT_REVIEWS),
    months(db, accountId, todayDate, timeZone),
  ]);
  const thisMonth = series[series.length - 1]!;

  return {
    object: 'dashboard',
    currency: config.currency,
    timezone: timeZone,
    today: todayDate,
    jobs_today: jobsToday,
    jobs_upcoming: jobsUpcoming,
    revenue_this_month: { amount: fromCents(thisMonth.cents), count: thisMonth.payments },
    ...money,
    open_quotes: { amount: fromCents(Number(quotes.cents)), count: Number(quotes.count) },
    new_customers_this_month: thisMonth.customers,
    average_rating: rating.average === null ? null : Math.round(Number(rating.average) * 100) / 100,
    review_count: Number(rating.count),
    recent_reviews: reviews,
    revenue_by_month: series.map((m) => ({ month: m.month, revenue: fromCents(m.cents) })),
  };
}
