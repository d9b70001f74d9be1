import { z } from 'zod';
import { DateOnly, Money, Timestamp } from './common';
import { Customer } from './customer';

/**
 * The read models of the overview screens (dashboard, report, analytics, benchmark) and of a
 * customer's history. Every "today" and "this month" is in the account's time zone.
 */

const Person = z.object({ id: z.string(), name: z.string(), email: z.string().nullable() });
const Count = z.number().int().min(0);
const Rate = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .meta({ description: 'A fraction; null when nothing to divide by.' });

const Range = {
  from: DateOnly.optional(),
  to: DateOnly.optional(),
};

function toNotBeforeFrom(query: { from?: string | undefined; to?: string | undefined }) {
  return query.from === undefined || query.to === undefined || query.from <= query.to;
}
const toNotBeforeFromIssue = { message: 'must not be before from', path: ['to'] };

// ---------- dashboard ----------

export const DashboardJob = z.object({
  id: z.string(),
  job_number: z.string(),
  title: z.string(),
  status: z.enum(['unscheduled', 'scheduled', 'in_progress', 'completed', 'cancelled']),
  scheduled_start: Timestamp.nullable(),
  scheduled_end: Timestamp.nullable(),
  address: z.string().nullable(),
  price: Money.nullable(),
  customer: Person,
  assignees: z.array(z.string()),
});
export type DashboardJob = z.infer<typeof DashboardJob>;

export const ReviewSummary = z.object({
  id: z.string(),
  rating: z.number().int().min(1).max(5),
  comment: z.string().nullable(),
  source: z.string().nullable(),
  customer: Person.nullable(),
  received_at: Timestamp,
});
export type ReviewSummary = z.infer<typeof ReviewSummary>;

const AmountCount = z.object({ amount: Money, count: Count });

export const Dashboard = z
  .object({
    object: z.literal('dashboard'),
    currency: z.string(),
    timezone: z.string(),
    today: DateOnly,
    jobs_today: z.array(DashboardJob).meta({ description: 'Jobs starting today (not cancelled).' }),
    jobs_upcoming: z.array(DashboardJob).meta({
      description:
        'Jobs still to do (scheduled or in progress) starting in the 7 days after today, soonest first.',
    }),
    revenue_this_month: AmountCount.meta({ description: 'Payments received this calendar month.' }),
    outstanding: AmountCount.meta({ description: 'Balance of sent and partially paid invoices.' }),
    overdue: AmountCount.meta({ description: 'The part of outstanding whose due date has passed.' }),
    open_quotes: AmountCount.meta({
      description: 'Sent quotes that have not expired: count and total value.',
    }),
    new_customers_this_month: Count,
    average_rating: z.number().nullable(),
    review_count: Count,
    recent_reviews: z.array(ReviewSummary).max(5),
    revenue_by_month: z
      .array(z.object({ month: z.string().meta({ example: '2026-11' }), revenue: Money }))
      .length(6)
      .meta({
        description: 'Payments received in each of the last 6 months, oldest first, this month last.',
      }),
  })
  .meta({ id: 'Dashboard' });
export type Dashboard = z.infer<typeof Dashboard>;

// ---------- report ----------

export const REPORT_MAX_DAYS = 366;

export const ReportQuery = z
  .object(Range)
  .refine(toNotBeforeFrom, toNotBeforeFromIssue)
  .meta({ description: 'Both dates inclusive; default this month.' });
export type ReportQuery = z.infer<typeof ReportQuery>;

export const Report = z
  .object({
    object: z.literal('report'),
    currency: z.string(),
    from: DateOnly,
    to: DateOnly,
    payments: z.object({ total: Money, count: Count }).meta({ description: 'Payments received.' }),
    invoiced: z
      .object({ total: Money, count: Count })
      .meta({ description: 'Totals of invoices issued in the period, void ones excluded.' }),
    average_invoice: Money.nullable(),
    jobs_completed: Count,
    new_customers: Count,
    top_customers: z
      .array(z.object({ customer: Person, paid: Money, payments: Count }))
      .max(10)
      .meta({ description: 'By payments received in the period.' }),
    by_payment_method: z.array(
      z.object({
        method: z.string().meta({ description: 'As recorded; "unspecified" when none was given.' }),
        total: Money,
        count: Count,
      }),
    ),
  })
  .meta({ id: 'Report' });
export type Report = z.infer<typeof Report>;

// ---------- analytics ----------

export const ANALYTICS_MAX_DAYS = 1096;

export const AnalyticsQuery = z
  .object({
    interval: z.enum(['week', 'month']).default('month'),
    ...Range,
  })
  .refine(toNotBeforeFrom, toNotBeforeFromIssue)
  .meta({ description: 'Default: monthly over the last 12 months. Weeks start on Monday.' });
export type AnalyticsQuery = z.infer<typeof AnalyticsQuery>;

export const AnalyticsBucket = z.object({
  start: DateOnly.meta({ description: 'First day of the bucket inside the requested period.' }),
  end: DateOnly.meta({ description: 'Last day of the bucket inside the requested period.' }),
  revenue: Money,
  invoiced: Money,
  invoices: Count,
  jobs_completed: Count,
  new_customers: Count,
  quotes_accepted: Count.meta({ description: 'Accepted or converted quotes decided in the bucket.' }),
  quotes_decided: Count.meta({ description: 'Quotes accepted, converted or declined in the bucket.' }),
  quote_acceptance_rate: Rate,
});
export type AnalyticsBucket = z.infer<typeof AnalyticsBucket>;

export const Analytics = z
  .object({
    object: z.literal('analytics'),
    currency: z.string(),
    interval: z.enum(['week', 'month']),
    from: DateOnly,
    to: DateOnly,
    series: z.array(AnalyticsBucket),
  })
  .meta({ id: 'Analytics' });
export type Analytics = z.infer<typeof Analytics>;

// ---------- benchmark ----------

export const BENCHMARK_MAX_DAYS = 366;
export const BENCHMARK_BASELINE_PERIODS = 6;

export const BenchmarkQuery = z
  .object(Range)
  .refine(toNotBeforeFrom, toNotBeforeFromIssue)
  .meta({ description: 'Both dates inclusive; default the last 30 days.' });
export type BenchmarkQuery = z.infer<typeof BenchmarkQuery>;

export const BENCHMARK_FIGURES = [
  'average_invoice',
  'days_to_pay',
  'quote_acceptance_rate',
  'repeat_customer_rate',
  'average_rating',
  'review_velocity',
] as const;

export const BenchmarkFigure = z.object({
  key: z.enum(BENCHMARK_FIGURES),
  label: z.string(),
  unit: z.enum(['money', 'days', 'rate', 'rating', 'per_week']),
  higher_is_better: z.boolean(),
  value: z.number().nullable().meta({ description: 'This period; null when there is nothing to measure.' }),
  baseline: z.number().nullable().meta({
    description:
      'The average over the 6 periods of equal length before this one (periods without data are left out); null without history.',
  }),
  change: z
    .object({ absolute: z.number(), percent: z.number().nullable() })
    .nullable()
    .meta({ description: 'value − baseline; percent is null when the baseline is 0.' }),
  direction: z.enum(['better', 'worse', 'same']).nullable(),
});
export type BenchmarkFigure = z.infer<typeof BenchmarkFigure>;

export const Benchmark = z
  .object({
    object: z.literal('benchmark'),
    currency: z.string(),
    from: DateOnly,
    to: DateOnly,
    baseline_from: DateOnly,
    baseline_to: DateOnly,
    figures: z.array(BenchmarkFigure),
  })
  .meta({ id: 'Benchmark' });
export type Benchmark = z.infer<typeof Benchmark>;

// ---------- customer history ----------

export const HISTORY_LIMIT = 50;

export const CustomerHistory = z
  .object({
    invoices: z.array(
      z.object({
        id: z.string(),
        number: z.string(),
        status: z.enum(['draft', 'sent', 'partially_paid', 'paid', 'void', 'overdue']),
        total: Money,
        amount_paid: Money,
        balance: Money,
        issue_date: DateOnly,
        due_date: DateOnly,
      }),
    ),
    quotes: z.array(
      z.object({
        id: z.string(),
        number: z.string(),
        status: z.enum(['draft', 'sent', 'accepted', 'declined', 'converted', 'expired']),
        total: Money,
        issue_date: DateOnly,
        valid_until: DateOnly,
      }),
    ),
    jobs: z.array(
      z.object({
        id: z.string(),
        job_number: z.string(),
        title: z.string(),
        status: DashboardJob.shape.status,
        scheduled_start: Timestamp.nullable(),
        completed_at: Timestamp.nullable(),
        price: Money.nullable(),
      }),
    ),
    reviews: z.array(
      z.object({
        id: z.string(),
        rating: z.number().int(),
        comment: z.string().nullable(),
        source: z.string().nullable(),
        received_at: Timestamp,
      }),
    ),
    messages: z.array(
      z.object({
        id: z.string(),
        kind: z.enum(['invoice', 'quote', 'winback', 'reminder']),
        to: z.string(),
        subject: z.string(),
        status: z.enum(['queued', 'sending', 'sent', 'failed', 'cancelled']),
        last_error: z.string().nullable(),
        created_at: Timestamp,
        sent_at: Timestamp.nullable(),
      }),
    ),
    totals: z.object({ invoiced: Money, paid: Money, outstanding: Money }).meta({
      description: 'Over all of the customer’s invoices (void ones excluded), not only the ones listed.',
    }),
  })
  .meta({
    id: 'CustomerHistory',
    description: 'The most recent 50 of each kind of record, newest first.',
  });
export type CustomerHistory = z.infer<typeof CustomerHistory>;

export const CustomerWithHistory = Customer.extend({ history: CustomerHistory }).meta({
  id: 'CustomerWithHistory',
});
export type CustomerWithHistory = z.infer<typeof CustomerWithHistory>;
