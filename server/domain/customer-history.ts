import { sql } from 'kysely';
import { fromCents } from '../../shared/money';
import { type CustomerHistory, type CustomerWithHistory, HISTORY_LIMIT } from '../../shared/schemas/overview';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import { todayIn } from '../lib/clock';
import { getAccount } from './accounts';
import { getCustomer, resolveCustomerId } from './customers';
import { isOverdue, OPEN_STATUSES } from './invoice-status';
import { mailStatus } from './mail';

/**
 * Everything the business has done with one customer, newest first, for the customer's page:
 * invoices and quotes with the states computed on read (overdue, expired), jobs, reviews and
 * the e-mails sent to them, plus money totals over all their invoices.
 */
export async function getCustomerHistory(
  db: Queryable,
  ctx: AppContext,
  accountId: string,
  customerId: string,
): Promise<CustomerHistory> {
  const { config } = await getAccount(db, accountId);
  const todayDate = todayIn(ctx.clock, config.timezone);

  const [invoices, quotes, jobs, reviews, messages, totals] = await Promise.all([
    db
      .selectFrom('invoices')
      .select(['id', 'number', 'status', 'total_cents', 'amount_paid_cents', 'issue_date', 'due_date'])
      .where('account_id', '=', accountId)
      .where('customer_id', '=', customerId)
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute(),
    db
      .selectFrom('quotes')
      .select(['id', 'number', 'status', 'total_cents', 'issue_date', 'valid_until'])
      .where('account_id', '=', accountId)
      .where('customer_id', '=', customerId)
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute(),
    db
      .selectFrom('jobs')
      .select(['id', 'number', 'title', 'status', 'scheduled_start', 'completed_at', 'price_cents'])
      .where('account_id', '=', accountId)
      .where('customer_id', '=', customerId)
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute(),
    db
      .selectFrom('reviews')
      .select(['id', 'rating', 'comment', 'source', 'received_at'])
      .where('account_id', '=', accountId)
      .where('customer_id', '=', customerId)
      .orderBy('received_at', 'desc')
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute(),
    db
      .selectFrom('mail_messages')
      .select([
        'id',
        'kind',
        'reminder',
        'to_address',
        'subject',
        'status',
        'last_error',
        'cancelled_at',
        'created_at',
        'sent_at',
      ])
      .where('account_id', '=', accountId)
      .where('customer_id', '=', customerId)
      .orderBy('id', 'desc')
      .limit(HISTORY_LIMIT)
      .execute(),
    db
      .selectFrom('invoices')
      .select([
        sql<number>`coalesce(sum(total_cents), 0)`.as('invoiced'),
        sql<number>`coalesce(sum(amount_paid_cents), 0)`.as('paid'),
        sql<number>`coalesce(sum(case when status in (${sql.join([...OPEN_STATUSES])}) then total_cents - amount_paid_cents else 0 end), 0)`.as(
          'outstanding',
        ),
      ])
      .where('account_id', '=', accountId)
      .where('customer_id', '=', customerId)
      .where('status', '!=', 'void')
      .executeTakeFirstOrThrow(),
  ]);

  return {
    invoices: invoices.map((row) => {
      const balance = row.total_cents - row.amount_paid_cents;
      const overdue = isOverdue(row, todayDate);
      return {
        id: row.id,
        number: row.number,
        status: overdue ? 'overdue' : row.status,
        total: fromCents(row.total_cents),
        amount_paid: fromCents(row.amount_paid_cents),
        balance: fromCents(row.status === 'void' ? 0 : balance),
        issue_date: row.issue_date,
        due_date: row.due_date,
      };
    }),
    quotes: quotes.map((row) => ({
      id: row.id,
      number: row.number,
      status: row.status === 'sent' && row.valid_until < todayDate ? 'expired' : row.status,
      total: fromCents(row.total_cents),
      issue_date: row.issue_date,
      valid_until: row.valid_until,
    })),
    jobs: jobs.map((row) => ({
      id: row.id,
      job_number: row.number,
      title: row.title,
      status: row.status,
      scheduled_start: row.scheduled_start,
      completed_at: row.completed_at,
      price: row.price_cents === null ? null : fromCents(row.price_cents),
    })),
    reviews,
    messages: messages.map((row) => ({
      id: row.id,
      kind: row.reminder ? 'reminder' : row.kind,
      to: row.to_address,
      subject: row.subject,
      status: mailStatus(row),
      last_error: row.last_error,
      created_at: row.created_at,
      sent_at: row.sent_at,
    })),
    totals: {
      invoiced: fromCents(Number(totals.invoiced)),
      paid: fromCents(Number(totals.paid)),
      outstanding: fromCents(Number(totals.outstanding)),
    },
  };
}

/**
 * GET /customers/{id or email}: the customer and their history, read in one transaction so they
 * agree. The UI links by id, so a changed e-mail breaks no link.
 */
export async function getCustomerWithHistory(
  ctx: AppContext,
  accountId: string,
  idOrEmail: string,
): Promise<CustomerWithHistory> {
  return ctx.db.transaction().execute(async (tx) => {
    const customer = await getCustomer(ctx, accountId, await resolveCustomerId(tx, accountId, idOrEmail), tx);
    return { ...customer, history: await getCustomerHistory(tx, ctx, accountId, customer.id) };
  });
}
