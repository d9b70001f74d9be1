import {
  type Review,
  ReviewCreate,
  type ReviewDashboard,
  type ReviewListQuery,
  type ReviewUpdate,
  type ReviewVelocity,
} from '../../shared/schemas/review';
import { addDays, dateInZone, isoWeekday, startOfDay } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import type { ReviewsTable } from '../db/schema';
import { isoNow, todayIn, toIso } from '../lib/clock';
import { notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { findOrCreateCustomer } from './customers';
import { recordEvent } from './events';
import {
  type OwnerFilters,
  periodInstants,
  type TimeFilters,
  whereOwnerFilters,
  wherePeriod,
  whereTimeFilters,
} from './list-filters';
import { keysetPage, type Page } from './pagination';

const NEEDS_RESPONSE_MAX_RATING = 2;
const NEEDS_RESPONSE_DAYS = 90;

export async function presentReviews(db: Queryable, rows: ReviewsTable[]): Promise<Review[]> {
  if (rows.length === 0) return [];
  const customerIds = [...new Set(rows.flatMap((r) => (r.customer_id ? [r.customer_id] : [])))];
  const jobIds = [...new Set(rows.flatMap((r) => (r.job_id ? [r.job_id] : [])))];
  const [customers, jobs] = await Promise.all([
    customerIds.length
      ? db.selectFrom('customers').select(['id', 'name', 'email']).where('id', 'in', customerIds).execute()
      : [],
    jobIds.length ? db.selectFrom('jobs').select(['id', 'number']).where('id', 'in', jobIds).execute() : [],
  ]);
  return rows.map((row) => {
    const customer = customers.find((c) => c.id === row.customer_id);
    const job = jobs.find((j) => j.id === row.job_id);
    return {
      id: row.id,
      object: 'review' as const,
      rating: row.rating,
      comment: row.comment,
      customer: customer ? { id: customer.id, name: customer.name, email: customer.email } : null,
      job: job ? { id: job.id, job_number: job.number } : null,
      source: row.source,
      received_at: row.received_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

async function getRow(db: Queryable, accountId: string, id: string): Promise<ReviewsTable> {
  const row = await db
    .selectFrom('reviews')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No review ${id}`);
  return row;
}

export async function getReview(ctx: AppContext, accountId: string, id: string): Promise<Review> {
  const [review] = await presentReviews(ctx.db, [await getRow(ctx.db, accountId, id)]);
  return review!;
}

export type ReviewListFilters = ReviewListQuery & Pick<OwnerFilters, 'customer_id'> & TimeFilters;

export async function listReviews(
  ctx: AppContext,
  accountId: string,
  query: ReviewListFilters,
): Promise<Page<Review>> {
  const period = await periodInstants(ctx.db, accountId, query);
  return keysetPage(
    query,
    'rev',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('reviews').selectAll().where('account_id', '=', accountId);
      if (beforeId) q = q.where('id', '<', beforeId);
      if (query.rating) q = q.where('rating', '=', query.rating);
      if (query.source) q = q.where('source', '=', query.source);
      q = wherePeriod(q, 'received_at', period);
      q = whereOwnerFilters(q, 'reviews', query);
      q = whereTimeFilters(q, 'reviews', query);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => presentReviews(ctx.db, rows),
  );
}

/**
 * Records a review (emits review.received). The reviewer is the e-mail given (created when
 * unknown), else the reviewed job's customer, else nobody: public reviews are often anonymous.
 */
export async function createReview(ctx: AppContext, accountId: string, input: ReviewCreate): Promise<Review> {
  const review = ReviewCreate.parse(input);
  return ctx.db.transaction().execute(async (tx) => {
    const job = review.job_number
      ? await tx
          .selectFrom('jobs')
          .select(['id', 'customer_id'])
          .where('account_id', '=', accountId)
          .where(review.job_number.startsWith('job_') ? 'id' : 'number', '=', review.job_number)
          .executeTakeFirst()
      : undefined;
    if (review.job_number && !job) throw validationError(`No job ${review.job_number}`, 'job_number');
    let customerId = job?.customer_id ?? null;
    if (review.customer_email || review.customer_id) {
      const customer = await findOrCreateCustomer(tx, ctx, accountId, {
        customer_id: review.customer_id,
        email: review.customer_email,
        name: review.customer_name,
      });
      if (job && job.customer_id !== customer.id) {
        throw validationError(`Job ${review.job_number} belongs to another customer`, 'job_number');
      }
      customerId = customer.id;
    }
    const now = isoNow(ctx.clock);
    const row: ReviewsTable = {
      id: newId('rev', ctx.clock.now().getTime()),
      account_id: accountId,
      customer_id: customerId,
      job_id: job?.id ?? null,
      rating: review.rating,
      comment: review.comment ?? null,
      source: review.source,
      received_at: review.received_at ?? now,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('reviews').values(row).execute();
    const [presented] = await presentReviews(tx, [row]);
    await recordEvent(tx, ctx.clock, accountId, 'review.received', presented);
    return presented!;
  });
}

export async function updateReview(
  ctx: AppContext,
  accountId: string,
  id: string,
  patch: ReviewUpdate,
): Promise<Review> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getRow(tx, accountId, id);
    const next: ReviewsTable = {
      ...row,
      rating: patch.rating ?? row.rating,
      comment: patch.comment === undefined ? row.comment : patch.comment,
      source: patch.source ?? row.source,
      received_at: patch.received_at ?? row.received_at,
      updated_at: isoNow(ctx.clock),
    };
    await tx.updateTable('reviews').set(next).where('id', '=', row.id).execute();
    const [review] = await presentReviews(tx, [next]);
    return review!;
  });
}

export async function deleteReview(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<{ id: string; object: 'review'; deleted: true }> {
  const row = await getRow(ctx.db, accountId, id);
  await ctx.db.deleteFrom('reviews').where('id', '=', row.id).execute();
  return { id: row.id, object: 'review' as const, deleted: true as const };
}

function average(sum: number, count: number): number | null {
  return count === 0 ? null : Math.round((sum / count) * 100) / 100;
}

async function ratingSummary(db: Queryable, accountId: string, from: string, to: string) {
  const row = await db
    .selectFrom('reviews')
    .select((eb) => [eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('rating').as('sum')])
    .where('account_id', '=', accountId)
    .where('received_at', '>=', from)
    .where('received_at', '<', to)
    .executeTakeFirstOrThrow();
  return { count: Number(row.count), average_rating: average(Number(row.sum ?? 0), Number(row.count)) };
}

function monthStart(month: string, timeZone: string): string {
  return toIso(startOfDay(`${month}-01`, timeZone));
}

function shiftMonth(month: string, by: number): string {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const d = new Date(Date.UTC(y, m - 1 + by, 1));
  return d.toISOString().slice(0, 7);
}

/** The reviews page: how the business is rated, where reviews come from, and the unhappy ones to answer. */
export async function reviewDashboard(ctx: AppContext, accountId: string): Promise<ReviewDashboard> {
  const { config } = await getAccount(ctx.db, accountId);
  const timeZone = config.timezone;
  const now = ctx.clock.now();
  const thisMonth = dateInZone(now, timeZone).slice(0, 7);
  const lastMonth = shiftMonth(thisMonth, -1);
  const base = ctx.db.selectFrom('reviews').where('account_id', '=', accountId);
  const [byRating, bySource, recent, needsResponse, current, previous] = await Promise.all([
    base
      .select((eb) => ['rating', eb.fn.countAll<number>().as('count')])
      .groupBy('rating')
      .execute(),
    base
      .select((eb) => ['source', eb.fn.countAll<number>().as('count'), eb.fn.sum<number>('rating').as('sum')])
      .groupBy('source')
      .orderBy('count', 'desc')
      .orderBy('source')
      .execute(),
    base.selectAll().orderBy('received_at', 'desc').orderBy('id', 'desc').limit(5).execute(),
    base
      .selectAll()
      .where('rating', '<=', NEEDS_RESPONSE_MAX_RATING)
      .where('received_at', '>=', toIso(new Date(now.getTime() - NEEDS_RESPONSE_DAYS * 86_400_000)))
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .limit(10)
      .execute(),
    ratingSummary(
      ctx.db,
      accountId,
      monthStart(thisMonth, timeZone),
      monthStart(shiftMonth(thisMonth, 1), timeZone),
    ),
    ratingSummary(ctx.db, accountId, monthStart(lastMonth, timeZone), monthStart(thisMonth, timeZone)),
  ]);
  const countOf = (rating: number) => Number(byRating.find((r) => r.rating === rating)?.count ?? 0);
  const count = byRating.reduce((sum, r) => sum + Number(r.count), 0);
  const ratingSum = byRating.reduce((sum, r) => sum + r.rating * Number(r.count), 0);
  const [recentReviews, lowReviews] = await Promise.all([
    presentReviews(ctx.db, recent),
    presentReviews(ctx.db, needsResponse),
  ]);
  return {
    object: 'review_dashboard',
    count,
    average_rating: average(ratingSum, count),
    distribution: { '1': countOf(1), '2': countOf(2), '3': countOf(3), '4': countOf(4), '5': countOf(5) },
    this_month: { month: thisMonth, ...current },
    last_month: { month: lastMonth, ...previous },
    by_source: bySource.map((s) => ({
      source: s.source,
      count: Number(s.count),
      average_rating: average(Number(s.sum ?? 0), Number(s.count)),
    })),
    recent: recentReviews,
    needs_response: lowReviews,
  };
}

/**
 * Reviews per week (Monday-based weeks in the account's zone) for the last `weeks` weeks, this
 * week included, and the pace against the same number of weeks before.
 */
export async function reviewVelocity(
  ctx: AppContext,
  accountId: string,
  weeks: number,
): Promise<ReviewVelocity> {
  const { config } = await getAccount(ctx.db, accountId);
  const timeZone = config.timezone;
  const today = todayIn(ctx.clock, timeZone);
  const thisMonday = addDays(today, 1 - isoWeekday(today));
  const firstMonday = addDays(thisMonday, -7 * (weeks - 1));
  const previousMonday = addDays(firstMonday, -7 * weeks);
  const rows = await ctx.db
    .selectFrom('reviews')
    .select(['received_at', 'rating'])
    .where('account_id', '=', accountId)
    .where('received_at', '>=', toIso(startOfDay(previousMonday, timeZone)))
    .where('received_at', '<', toIso(startOfDay(addDays(thisMonday, 7), timeZone)))
    .execute();
  const buckets = new Map<string, { count: number; sum: number }>();
  for (const row of rows) {
    const day = dateInZone(new Date(row.received_at), timeZone);
    const monday = addDays(day, 1 - isoWeekday(day));
    const bucket = buckets.get(monday) ?? { count: 0, sum: 0 };
    bucket.count += 1;
    bucket.sum += row.rating;
    buckets.set(monday, bucket);
  }
  const series = Array.from({ length: weeks }, (_, i) => {
    const weekStart = addDays(firstMonday, 7 * i);
    const bucket = buckets.get(weekStart) ?? { count: 0, sum: 0 };
    return { week_start: weekStart, count: bucket.count, average_rating: average(bucket.sum, bucket.count) };
  });
  const current = series.reduce((sum, w) => sum + w.count, 0);
  const previous = rows.length - current;
  const perWeek = Math.round((current / weeks) * 100) / 100;
  const previousPerWeek = Math.round((previous / weeks) * 100) / 100;
  return {
    object: 'review_velocity',
    timezone: timeZone,
    weeks: series,
    trend: {
      per_week: perWeek,
      previous_per_week: previousPerWeek,
      change: previous === 0 ? null : Math.round(((current - previous) / previous) * 100) / 100,
      direction: current > previous ? 'up' : current < previous ? 'down' : 'flat',
    },
  };
}
