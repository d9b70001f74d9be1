import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { InvoiceCreate } from '../../shared/schemas/invoice';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import { type AppContext, createContext } from '../context';
import { manualClock } from '../lib/clock';
import { ApiError } from '../lib/errors';
import type { OpenedDatabase } from '../sync/open';
import { createAccount, updateConfig } from './accounts';
import { markDocumentSent } from './document-mail';
import { markPaid, recordPayment } from './invoice-payments';
import {
  createInvoice,
  deleteInvoice,
  getInvoice,
  listInvoices,
  markInvoiceSent,
  sendInvoice,
  updateInvoice,
  voidInvoice,
} from './invoices';
import { presentMail } from './mail';

let dir: string;
let database: OpenedDatabase;
let clock: ReturnType<typeof manualClock>;
let ctx: AppContext;
let accountId: string;

const body: InvoiceCreate = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  items: [{ description: 'Window cleaning', quantity: 2, unit_price: 50 }],
  taxes: [{ name: 'HST', rate: 0.13 }],
  due_days: 14,
};

beforeEach(async () => {
  ({ dir, database } = await openMigratedDatabase('shopdesk-invoices-'));
  // 10:00 in Toronto on 22 November.
  clock = manualClock('2026-11-22T15:00:00Z');
  ctx = createContext(database.db, clock);
  accountId = (await createAccount(ctx, { businessName: 'Sparkle', plan: 'platform', apiPlan: 'growth' })).id;
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refused(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function eventTypes(): Promise<string[]> {
  const rows = await ctx.db.selectFrom('events').select('type').orderBy('id').execute();
  return rows.map((r) => r.type);
}

describe('invoice creation', () => {
  it('numbers invoices, computes totals and dates, and creates the customer', async () => {
    const first = await createInvoice(ctx, accountId, body);
    const second = await createInvoice(ctx, accountId, { ...body, customer_email: 'ADA@example.com' });
    expect(first).toMatchObject({
      number: 'INV-0001',
      status: 'draft',
      subtotal: 100,
      tax_total: 13,
      total: 113,
      balance: 113,
      issue_date: '2026-11-22',
      due_date: '2026-12-06',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
    });
    expect(second.number).toBe('INV-0002');
    expect(second.customer.id).toBe(first.customer.id);
    expect(await eventTypes()).toEqual(['customer.created']);
  });

  it('uses the config defaults only when taxes and due_days are absent', async () => {
    await updateConfig(ctx, accountId, {
      default_taxes: [
        { name: 'GST', rate: 0.05 },
        { name: 'PST', rate: 0.07 },
      ],
      default_due_days: 7,
      invoice_prefix: 'F-',
    });
    const { taxes: _taxes, due_days: _dueDays, ...withoutDefaults } = body;
    const defaulted = await createInvoice(ctx, accountId, withoutDefaults);
    expect(defaulted.number).toBe('F-0001');
    expect(defaulted.taxes.map((t) => t.name)).toEqual(['GST', 'PST']);
    expect(defaulted.due_date).toBe('2026-11-29');
    const untaxed = await createInvoice(ctx, accountId, { ...body, taxes: [] });
    expect(untaxed.taxes).toEqual([]);
    expect(untaxed.total).toBe(100);
  });

  it('takes the issue date in the business time zone', async () => {
    // 02:00 UTC on the 23rd is still the 22nd in Toronto.
    clock.set('2026-11-23T02:00:00Z');
    const invoice = await createInvoice(ctx, accountId, body);
    expect(invoice.issue_date).toBe('2026-11-22');
  });
});

describe('invoice state machine', () => {
  it('goes draft → sent → partially_paid → paid with one event per payment', async () => {
    const draft = await createInvoice(ctx, accountId, body);
    const sent = await markInvoiceSent(ctx, accountId, draft.number);
    expect(sent.status).toBe('sent');
    expect(sent.sent_at).toBe('2026-11-22T15:00:00Z');

    const partial = await recordPayment(ctx, accountId, draft.id, { amount: 40, method: 'cash' });
    expect(partial).toMatchObject({ status: 'partially_paid', amount_paid: 40, balance: 73, paid_at: null });
    expect(partial.payments).toHaveLength(1);

    const paid = await markPaid(ctx, accountId, draft.number, { method: 'card' });
    expect(paid).toMatchObject({
      status: 'paid',
      amount_paid: 113,
      balance: 0,
      paid_at: '2026-11-22T15:00:00Z',
    });
    expect(paid.payments.map((p) => [p.amount, p.method])).toEqual([
      [40, 'cash'],
      [73, 'card'],
    ]);
    expect(await eventTypes()).toEqual(['customer.created', 'invoice.payment_recorded', 'invoice.paid']);

    const stored = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'invoice.paid')
      .execute();
    expect(JSON.parse(stored[0]!.payload).data.object).toEqual(
      await getInvoice(ctx, accountId, draft.number),
    );
  });

  it('raises only invoice.paid for a single payment of the whole balance', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    await recordPayment(ctx, accountId, invoice.number, { amount: 113 });
    expect(await eventTypes()).toEqual(['customer.created', 'invoice.paid']);
  });

  it('refuses overpayment, future payments and payments on paid or void invoices', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    const over = await refused(recordPayment(ctx, accountId, invoice.number, { amount: 113.01 }));
    expect([over.status, over.options.param]).toEqual([400, 'amount']);
    const future = await refused(
      recordPayment(ctx, accountId, invoice.number, { amount: 1, paid_at: '2026-11-23T00:00:00Z' }),
    );
    expect([future.status, future.options.param]).toEqual([400, 'paid_at']);

    await markPaid(ctx, accountId, invoice.number);
    expect((await refused(markPaid(ctx, accountId, invoice.number))).status).toBe(409);
    expect((await refused(recordPayment(ctx, accountId, invoice.number, { amount: 1 }))).code).toBe(
      'invalid_state',
    );

    const other = await createInvoice(ctx, accountId, body);
    await voidInvoice(ctx, accountId, other.number);
    expect((await refused(recordPayment(ctx, accountId, other.number, { amount: 1 }))).status).toBe(409);
    expect((await refused(sendInvoice(ctx, accountId, other.number))).status).toBe(409);
  });

  it('stores a backdated payment time in UTC', async () => {
    const invoice = await createInvoice(ctx, accountId, { ...body, issue_date: '2026-11-20' });
    const paid = await recordPayment(ctx, accountId, invoice.number, {
      amount: 10,
      paid_at: '2026-11-21T18:30:00-05:00',
    });
    expect(paid.payments[0]!.paid_at).toBe('2026-11-21T23:30:00Z');
  });

  it('voids only invoices without payments', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    await markInvoiceSent(ctx, accountId, invoice.number);
    await recordPayment(ctx, accountId, invoice.number, { amount: 10 });
    const refusal = await refused(voidInvoice(ctx, accountId, invoice.number));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toContain('payments');

    const sent = await createInvoice(ctx, accountId, body);
    await markInvoiceSent(ctx, accountId, sent.number);
    const voided = await voidInvoice(ctx, accountId, sent.number);
    expect(voided).toMatchObject({ status: 'void', voided_at: '2026-11-22T15:00:00Z' });
    expect((await refused(voidInvoice(ctx, accountId, sent.number))).message).toContain('already void');
  });

  it('refuses to mark a zero-total invoice paid: nothing was paid', async () => {
    const free = await createInvoice(ctx, accountId, {
      ...body,
      items: [{ description: 'Warranty visit', quantity: 1, unit_price: 0 }],
    });
    const error = await refused(markPaid(ctx, accountId, free.number));
    expect(error).toMatchObject({ status: 409, code: 'invalid_state' });
    expect((await getInvoice(ctx, accountId, free.number)).status).toBe('draft');
  });

  it('queues the e-mail without calling the invoice sent; it turns sent when the e-mail goes out', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    const queued = await sendInvoice(ctx, accountId, invoice.number);
    expect(queued).toMatchObject({ status: 'draft', sent_at: null });
    expect((await refused(sendInvoice(ctx, accountId, invoice.number))).message).toContain('already waits');
    const [mail] = await ctx.db.selectFrom('mail_messages').selectAll().execute();
    expect([mail!.kind, mail!.document_id, mail!.to_address, mail!.status]).toEqual([
      'invoice',
      invoice.id,
      'ada@example.com',
      'queued',
    ]);
    expect(mail!.subject).toBe('Invoice INV-0001 from Sparkle');
    expect(mail!.body).toContain('$113.00');

    clock.advance(60_000);
    await markDocumentSent(ctx.db, mail!, '2026-11-22T15:01:00Z');
    expect(await getInvoice(ctx, accountId, invoice.number)).toMatchObject({
      status: 'sent',
      sent_at: '2026-11-22T15:01:00Z',
    });
  });

  it('cancels a waiting e-mail once the invoice is paid in full, so no payment request goes out', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    await sendInvoice(ctx, accountId, invoice.number);
    await recordPayment(ctx, accountId, invoice.number, { amount: 13 });
    let [mail] = await ctx.db.selectFrom('mail_messages').selectAll().execute();
    expect([mail!.status, mail!.cancelled_at]).toEqual(['queued', null]);
    await markPaid(ctx, accountId, invoice.number);
    [mail] = await ctx.db.selectFrom('mail_messages').selectAll().execute();
    expect(mail!.cancelled_at).toBe('2026-11-22T15:00:00Z');
    expect(mail!.last_error).toBe('Invoice INV-0001 was paid in full before this e-mail went out.');
    expect(presentMail(mail!).status).toBe('cancelled');
  });
});

describe('overdue', () => {
  it('is computed from the due date in the business time zone, for open invoices only', async () => {
    const draft = await createInvoice(ctx, accountId, body);
    const sent = await createInvoice(ctx, accountId, body);
    await markInvoiceSent(ctx, accountId, sent.number);
    const partial = await createInvoice(ctx, accountId, body);
    await markInvoiceSent(ctx, accountId, partial.number);
    await recordPayment(ctx, accountId, partial.number, { amount: 1 });
    const paid = await createInvoice(ctx, accountId, body);
    await markPaid(ctx, accountId, paid.number);

    // Due 2026-12-06: at 23:00 that day in Toronto (04:00 UTC on the 7th) it is not late yet.
    clock.set('2026-12-07T04:00:00Z');
    expect((await getInvoice(ctx, accountId, sent.number)).status).toBe('sent');
    clock.set('2026-12-07T05:30:00Z');
    const statuses = await Promise.all(
      [draft, sent, partial, paid].map(async (i) => (await getInvoice(ctx, accountId, i.number)).status),
    );
    expect(statuses).toEqual(['draft', 'overdue', 'overdue', 'paid']);

    const overdue = await listInvoices(ctx, accountId, { limit: 25, status: 'overdue' });
    expect(overdue.data.map((i) => i.number)).toEqual([partial.number, sent.number]);
    const stillSent = await listInvoices(ctx, accountId, { limit: 25, status: 'sent' });
    expect(stillSent.data).toEqual([]);
    const drafts = await listInvoices(ctx, accountId, { limit: 25, status: 'draft' });
    expect(drafts.data.map((i) => i.number)).toEqual([draft.number]);
  });
});

describe('draft-only changes', () => {
  it('updates a draft, recomputing totals and keeping the lines not given', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    const updated = await updateInvoice(ctx, accountId, invoice.id, {
      taxes: [{ name: 'GST', rate: 0.05 }],
      due_date: '2026-12-31',
      customer_email: 'grace@example.com',
      customer_name: 'Grace Hopper',
      notes: 'Side door',
    });
    expect(updated).toMatchObject({
      items: [{ description: 'Window cleaning', quantity: 2, unit_price: 50, amount: 100 }],
      taxes: [{ name: 'GST', rate: 0.05, amount: 5 }],
      total: 105,
      due_date: '2026-12-31',
      notes: 'Side door',
      customer: { name: 'Grace Hopper', email: 'grace@example.com' },
    });
    const early = await refused(updateInvoice(ctx, accountId, invoice.id, { due_date: '2026-11-01' }));
    expect([early.status, early.options.param]).toEqual([400, 'due_date']);
  });

  it('refuses to change or delete an invoice that went out', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    await markInvoiceSent(ctx, accountId, invoice.number);
    expect((await refused(updateInvoice(ctx, accountId, invoice.number, { notes: 'x' }))).status).toBe(409);
    const refusal = await refused(deleteInvoice(ctx, accountId, invoice.number));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toContain('Void it instead');
  });

  it('deletes a draft with its lines and taxes', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    expect(await deleteInvoice(ctx, accountId, invoice.number)).toEqual({
      id: invoice.id,
      object: 'invoice',
      deleted: true,
    });
    expect((await refused(getInvoice(ctx, accountId, invoice.id))).status).toBe(404);
    const lines = await ctx.db
      .selectFrom('document_lines')
      .selectAll()
      .where('document_id', '=', invoice.id)
      .execute();
    expect(lines).toEqual([]);
  });

  it('never reaches another account’s invoice', async () => {
    const invoice = await createInvoice(ctx, accountId, body);
    const other = await createAccount(ctx, { businessName: 'Other', plan: 'platform', apiPlan: 'growth' });
    expect((await refused(getInvoice(ctx, other.id, invoice.number))).status).toBe(404);
    expect((await refused(markPaid(ctx, other.id, invoice.id))).status).toBe(404);
  });
});
