import { sql } from 'kysely';
import { fromCents } from '../../../shared/money';
import { REPORT_MAX_DAYS, type Report, type ReportQuery } from '../../../shared/schemas/overview';
import type { AppContext } from '../../context';
import { todayIn } from '../../lib/clock';
import { getAccount } from '../accounts';
import { checkRange, monthEnd, monthStart, period } from './periods';

const TOP_CUSTOMERS = 10;

/** Without `to`: through today, or through the month of `from` when `from` is still ahead. */
function defaultEnd(from: string | undefined, todayDate: string): string {
  if (from === undefined) return monthEnd(todayDate);
  return from <= todayDate ? todayDate : monthEnd(from);
}

/** What came in and went out over a period (default: this month), for the owner or the accountant. */
export async function getReport(ctx: AppContext, accountId: string, query: ReportQuery): Promise<Report> {
  const { config } = await getAccount(ctx.db, accountId);
  const todayDate = todayIn(ctx.clock, config.timezone);
  const from = query.from ?? monthStart(query.to ?? todayDate);
  const to = query.to ?? defaultEnd(query.from, todayDate);
  checkRange(from, to, REPORT_MAX_DAYS);
  const range = period(from, to, config.timezone);
  const db = ctx.db;

  const paymentsInRange = db
    .selectFrom('payments as p')
    .where('p.account_id', '=', accountId)
    .where('p.paid_at', '>=', range.start)
    .where('p.paid_at', '<', range.end);

  const [payments, invoiced, jobs, customers, top, methods] = await Promise.all([
    paymentsInRange
      .select([sql<number>`coalesce(sum(p.amount_cents), 0)`.as('cents'), sql<number>`count(*)`.as('count')])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('invoices')
      .select([sql<number>`coalesce(sum(total_cents), 0)`.as('cents'), sql<number>`count(*)`.as('count')])
      .where('account_id', '=', accountId)
      .where('issue_date', '>=', from)
      .where('issue_date', '<=', to)
      .where('status', '!=', 'void')
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('jobs')
      .select(sql<number>`count(*)`.as('count'))
      .where('account_id', '=', accountId)
      .where('status', '=', 'completed')
      .where('completed_at', '>=', range.start)
      .where('completed_at', '<', range.end)
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('customers')
      .select(sql<number>`count(*)`.as('count'))
      .where('account_id', '=', accountId)
      .where('created_at', '>=', range.start)
      .where('created_at', '<', range.end)
      .executeTakeFirstOrThrow(),
    paymentsInRange
      .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
      .innerJoin('customers as c', 'c.id', 'i.customer_id')
      .select([
        'c.id',
        'c.name',
        'c.email',
        sql<number>`sum(p.amount_cents)`.as('cents'),
        sql<number>`count(*)`.as('count'),
      ])
      .groupBy('c.id')
      .orderBy('cents', 'desc')
      .orderBy('c.id')
      .limit(TOP_CUSTOMERS)
      .execute(),
    paymentsInRange
      .select([
        sql<string>`coalesce(p.method, 'unspecified')`.as('method'),
        sql<number>`sum(p.amount_cents)`.as('cents'),
        sql<number>`count(*)`.as('count'),
      ])
      .groupBy('method')
      .orderBy('cents', 'desc')
      .orderBy('method')
      .execute(),
  ]);

  const invoicedCount = Number(invoiced.count);
  return {
    object: 'report',
    currency: config.currency,
    from,
    to,
    payments: { total: fromCents(Number(payments.cents)), count: Number(payments.count) },
    invoiced: { total: fromCents(Number(invoiced.cents)), count: invoicedCount },
    average_invoice: invoicedCount ? fromCents(Math.round(Number(invoiced.cents) / invoicedCount)) : null,
    jobs_completed: Number(jobs.count),
    new_customers: Number(customers.count),
    top_customers: top.map((row) => ({
      customer: { id: row.id, name: row.name, email: row.email },
      paid: fromCents(Number(row.cents)),
      payments: Number(row.count),
    })),
    by_payment_method: methods.map((row) => ({
      method: row.method,
      total: fromCents(Number(row.cents)),
      count: Number(row.count),
    })),
  };
}
