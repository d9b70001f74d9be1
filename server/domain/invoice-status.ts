import { type SqlBool, sql } from 'kysely';
import type { InvoiceStatus } from '../db/schema';

/**
 * The rules of an invoice's status, each said once: which invoices are open, when one is
 * overdue, and what its payments make it. The SQL forms are over the invoices alias `i`.
 */

/** Sent and not yet paid in full: an invoice that can be late and that reminders chase. */
export const OPEN_STATUSES = ['sent', 'partially_paid'] as const satisfies readonly InvoiceStatus[];

/** Invoices that count as issued (sales tax, accounting export): sent, or paid without being sent. */
export const ISSUED_STATUSES = ['sent', 'partially_paid', 'paid'] as const satisfies readonly InvoiceStatus[];

export function isOpen(status: string): boolean {
  return (OPEN_STATUSES as readonly string[]).includes(status);
}

/**
 * Overdue is computed on read, never stored (contract part 4): an invoice is overdue when it is
 * open, still owes money and its due date has passed in the business's time zone. As in Stripe,
 * only an invoice that went out can be late: a draft was never sent to anyone, and a paid or void
 * invoice owes nothing. The due date itself is not late yet.
 */
export function isOverdue(
  row: { status: string; total_cents: number; amount_paid_cents: number; due_date: string },
  today: string,
): boolean {
  return isOpen(row.status) && row.total_cents > row.amount_paid_cents && row.due_date < today;
}

/** Open and owing money, as SQL. */
export const owingSql = sql<SqlBool>`(i.status in (${sql.join([...OPEN_STATUSES])}) and i.total_cents > i.amount_paid_cents)`;

/** isOverdue, as SQL. */
export function overdueSql(today: string) {
  return sql<SqlBool>`(${owingSql} and i.due_date < ${today})`;
}

/**
 * Money first: payments decide paid and partially paid, whatever status was set before (by this
 * install or, after a sync, by another device); without payments the invoice keeps the status its
 * owner gave it, a paid one falling back to sent.
 */
export function statusAfterPayments(status: string, paidCents: number, totalCents: number): InvoiceStatus {
  const owner = status === 'paid' || status === 'partially_paid' ? 'sent' : (status as InvoiceStatus);
  return paidCents > 0 ? (paidCents >= totalCents ? 'paid' : 'partially_paid') : owner;
}
