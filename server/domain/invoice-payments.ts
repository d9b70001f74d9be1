import { toCents } from '../../shared/money';
import type { Invoice, MarkPaid, PaymentCreate } from '../../shared/schemas/invoice';
import { dateInZone } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { InvoicesTable } from '../db/schema';
import { isoNow, toIso } from '../lib/clock';
import { invalidState, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { formatMoney } from './documents';
import { recordEvent } from './events';
import { statusAfterPayments } from './invoice-status';
import { findRow, reload } from './invoices';
import { cancelWaitingMail } from './mail';

/** Payments on an invoice: money received, and the status it moves the invoice to (invoice-status.ts). */

/** When a payment was received: not in the future, and not before the invoice's issue date in the business's zone. */
async function paymentTime(
  tx: Tx,
  ctx: AppContext,
  row: InvoicesTable,
  paidAt: string | undefined,
): Promise<string> {
  if (paidAt === undefined) return isoNow(ctx.clock);
  const when = new Date(paidAt);
  if (when.getTime() > ctx.clock.now().getTime()) {
    throw validationError('paid_at is in the future; record a payment once it is received', 'paid_at');
  }
  const { config } = await getAccount(tx, row.account_id);
  if (dateInZone(when, config.timezone) < row.issue_date) {
    throw validationError(
      `paid_at is before ${row.number} was issued (${row.issue_date}); a payment comes after its invoice`,
      'paid_at',
    );
  }
  return toIso(when);
}

function refusePayment(row: InvoicesTable): void {
  if (row.status === 'void') throw invalidState(`Invoice ${row.number} is void and cannot take payments.`);
  if (row.status === 'paid') throw invalidState(`Invoice ${row.number} is already paid in full.`);
  if (row.total_cents === 0) {
    throw invalidState(`Invoice ${row.number} totals 0.00: there is nothing to pay.`);
  }
}

/**
 * Records money received and moves the invoice to partially_paid or paid. A draft may take a
 * payment too: a tradesperson paid on the spot should not have to "send" the invoice first.
 *
 * Events: a payment that leaves a balance raises invoice.payment_recorded (the spec's "partial
 * payment recorded"); the payment that brings the balance to zero raises invoice.paid only, so a
 * receiver never books the same final payment twice from two events.
 */
async function applyPayment(
  tx: Tx,
  ctx: AppContext,
  row: InvoicesTable,
  amountCents: number,
  method: string | undefined,
  paidAt: string,
): Promise<Invoice> {
  const now = isoNow(ctx.clock);
  if (amountCents > 0) {
    await tx
      .insertInto('payments')
      .values({
        id: newId('pay', ctx.clock.now().getTime()),
        account_id: row.account_id,
        invoice_id: row.id,
        amount_cents: amountCents,
        method: method ?? null,
        paid_at: paidAt,
        created_at: now,
      })
      .execute();
  }
  const paid = row.amount_paid_cents + amountCents;
  const status = statusAfterPayments(row.status, paid, row.total_cents);
  const paidInFull = status === 'paid';
  await tx
    .updateTable('invoices')
    .set({
      amount_paid_cents: paid,
      status,
      paid_at: paidInFull ? paidAt : null,
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  if (paidInFull) {
    await cancelWaitingMail(
      tx,
      row.id,
      `Invoice ${row.number} was paid in full before this e-mail went out.`,
      now,
    );
  }
  const invoice = await reload(tx, ctx, row);
  await recordEvent(
    tx,
    ctx.clock,
    row.account_id,
    paidInFull ? 'invoice.paid' : 'invoice.payment_recorded',
    invoice,
  );
  return invoice;
}

export async function recordPayment(
  ctx: AppContext,
  accountId: string,
  ref: string,
  payment: PaymentCreate,
): Promise<Invoice> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    refusePayment(row);
    const amount = toCents(payment.amount);
    const balance = row.total_cents - row.amount_paid_cents;
    if (amount > balance) {
      const { config } = await getAccount(tx, accountId);
      const money = (cents: number) => formatMoney(cents, row.currency, config.locale);
      throw validationError(
        `amount ${money(amount)} is more than the balance of ${row.number}, ${money(balance)}`,
        'amount',
      );
    }
    return applyPayment(
      tx,
      ctx,
      row,
      amount,
      payment.method,
      await paymentTime(tx, ctx, row, payment.paid_at),
    );
  });
}

/** Records a payment of the whole balance. */
export async function markPaid(
  ctx: AppContext,
  accountId: string,
  ref: string,
  options: MarkPaid = {},
): Promise<Invoice> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    refusePayment(row);
    return applyPayment(
      tx,
      ctx,
      row,
      row.total_cents - row.amount_paid_cents,
      options.method,
      await paymentTime(tx, ctx, row, options.paid_at),
    );
  });
}
