import { type SqlBool, sql } from 'kysely';
import { fromCents, toCents } from '../../shared/money';
import type { StoredConfig } from '../../shared/schemas/config';
import type { DeletedDocument, DocumentCustomer } from '../../shared/schemas/document';
import type {
  Invoice,
  InvoiceCreate,
  InvoiceListQuery,
  InvoiceStatus,
  InvoiceUpdate,
} from '../../shared/schemas/invoice';
import { addDays } from '../../shared/time-zone';
import type { AppContext } from '../context';
import { insertCompiledOnce } from '../db/compiled-once';
import type { Queryable, Tx } from '../db/database';
import type { InvoicesTable, PaymentsTable } from '../db/schema';
import { isoNow, todayIn } from '../lib/clock';
import { invalidState } from '../lib/errors';
import { getAccount } from './accounts';
import { queueDocumentMail, refuseWhileMailWaits } from './document-sending';
import {
  accountToday,
  applyDraftFields,
  bodyFromTotals,
  type DocumentBody,
  deleteDocumentBody,
  findDocumentRow,
  formatMoney,
  insertDocumentBody,
  loadDocumentBodies,
  loadDocumentCustomers,
  mailSignature,
  markDraftSent,
  newDocumentBasics,
  requireDateOrder,
  whereDocumentSearch,
} from './documents';
import { isOverdue, overdueSql } from './invoice-status';
import { type OwnerFilters, type TimeFilters, whereOwnerFilters, whereTimeFilters } from './list-filters';
import { cancelWaitingMail } from './mail';
import { keysetPage, type Page } from './pagination';

export type InvoiceQuery = InvoiceListQuery & OwnerFilters & TimeFilters;

function shownStatus(row: InvoicesTable, today: string): InvoiceStatus {
  return isOverdue(row, today) ? 'overdue' : row.status;
}

interface InvoiceParts {
  body: DocumentBody;
  customer: DocumentCustomer;
  payments: PaymentsTable[];
}

/** An invoice as the API returns it, from its row and the parts stored beside it. */
function presentInvoice(row: InvoicesTable, parts: InvoiceParts, today: string): Invoice {
  return {
    id: row.id,
    object: 'invoice' as const,
    number: row.number,
    status: shownStatus(row, today),
    customer: parts.customer,
    items: parts.body.items,
    taxes: parts.body.taxes,
    subtotal: fromCents(row.subtotal_cents),
    tax_total: fromCents(row.tax_total_cents),
    total: fromCents(row.total_cents),
    amount_paid: fromCents(row.amount_paid_cents),
    balance: fromCents(row.total_cents - row.amount_paid_cents),
    currency: row.currency,
    issue_date: row.issue_date,
    due_date: row.due_date,
    payments: parts.payments.map((p) => ({
      id: p.id,
      amount: fromCents(p.amount_cents),
      method: p.method,
      paid_at: p.paid_at,
      created_at: p.created_at,
    })),
    notes: row.notes,
    property_id: row.property_id ?? null,
    quote_id: row.quote_id,
    job_id: row.job_id,
    sent_at: row.sent_at,
    paid_at: row.paid_at,
    voided_at: row.voided_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Several invoices with their lines, taxes, customers and payments, in four batched queries. */
async function presentInvoices(db: Queryable, rows: InvoicesTable[], today: string): Promise<Invoice[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [bodies, customers, payments] = await Promise.all([
    loadDocumentBodies(db, ids),
    loadDocumentCustomers(
      db,
      rows.map((r) => r.customer_id),
    ),
    // In the order they were paid: a payment recorded late for last week lists before today's.
    db
      .selectFrom('payments')
      .selectAll()
      .where('invoice_id', 'in', ids)
      .orderBy('paid_at')
      .orderBy('id')
      .execute(),
  ]);
  return rows.map((row) =>
    presentInvoice(
      row,
      {
        body: bodies.get(row.id)!,
        customer: customers.get(row.customer_id)!,
        payments: payments.filter((p) => p.invoice_id === row.id),
      },
      today,
    ),
  );
}

export function findRow(db: Queryable, accountId: string, ref: string): Promise<InvoicesTable> {
  return findDocumentRow(db, 'invoices', accountId, ref);
}

async function presentOne(db: Queryable, ctx: AppContext, row: InvoicesTable): Promise<Invoice> {
  const [invoice] = await presentInvoices(db, [row], await accountToday(db, ctx, row.account_id));
  return invoice!;
}

export async function reload(tx: Tx, ctx: AppContext, row: InvoicesTable): Promise<Invoice> {
  return presentOne(tx, ctx, await findRow(tx, row.account_id, row.id));
}

export async function getInvoice(
  ctx: AppContext,
  accountId: string,
  ref: string,
  db: Queryable = ctx.db,
): Promise<Invoice> {
  return presentOne(db, ctx, await findRow(db, accountId, ref));
}

export async function listInvoices(
  ctx: AppContext,
  accountId: string,
  query: InvoiceQuery,
): Promise<Page<Invoice>> {
  const today = await accountToday(ctx.db, ctx, accountId);
  return keysetPage(
    query,
    'inv',
    (beforeId, limit) => {
      let q = ctx.db
        .selectFrom('invoices as i')
        .innerJoin('customers as c', 'c.id', 'i.customer_id')
        .selectAll('i')
        .where('i.account_id', '=', accountId);
      if (beforeId) q = q.where('i.id', '<', beforeId);
      switch (query.status) {
        case undefined:
          break;
        case 'overdue':
          q = q.where(overdueSql(today));
          break;
        case 'sent':
        case 'partially_paid':
          q = q.where('i.status', '=', query.status).where(sql<SqlBool>`not ${overdueSql(today)}`);
          break;
        default:
          q = q.where('i.status', '=', query.status);
      }
      q = whereOwnerFilters(q, 'i', query);
      if (query.q) q = whereDocumentSearch(q, 'i', query.q);
      q = whereTimeFilters(q, 'i', query);
      return q.orderBy('i.id', 'desc').limit(limit).execute();
    },
    (rows) => presentInvoices(ctx.db, rows, today),
  );
}

/**
 * Creates an invoice inside the caller's transaction (quote or job flows that bill in the same
 * step pass their links). Taxes default to the config's default_taxes only when the field is
 * absent: an explicit empty list means an untaxed invoice.
 */
export async function insertInvoice(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: InvoiceCreate,
  links: { quoteId?: string; jobId?: string; id?: string } = {},
): Promise<Invoice> {
  const { config, customer, totals, issueDate, columns } = await newDocumentBasics(
    tx,
    ctx,
    accountId,
    'invoice',
    input,
    // A service plan's invoices come with an id every install derives alike (recurring-work.md).
    links.id,
  );
  const row: InvoicesTable = {
    ...columns,
    due_date: addDays(issueDate, input.due_days ?? config.default_due_days),
    amount_paid_cents: 0,
    quote_id: links.quoteId ?? null,
    job_id: links.jobId ?? null,
    paid_at: null,
    voided_at: null,
  };
  await insertCompiledOnce(tx, 'invoices', [row]);
  await insertDocumentBody(tx, row.id, totals);
  // Everything the response shows is in hand: present it without reading it back.
  return presentInvoice(
    row,
    {
      body: bodyFromTotals(totals),
      customer: { id: customer.id, name: customer.name, email: customer.email },
      payments: [],
    },
    todayIn(ctx.clock, config.timezone),
  );
}

export async function createInvoice(
  ctx: AppContext,
  accountId: string,
  input: InvoiceCreate,
): Promise<Invoice> {
  return ctx.db.transaction().execute((tx) => insertInvoice(tx, ctx, accountId, input));
}

/** Only a draft changes: once an invoice went out, the customer holds a copy, so it is voided and reissued. */
export async function updateInvoice(
  ctx: AppContext,
  accountId: string,
  ref: string,
  patch: InvoiceUpdate,
): Promise<Invoice> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'draft') {
      throw invalidState(
        `Invoice ${row.number} is ${row.status}; only a draft can be changed. Void it and create a new one.`,
      );
    }
    const changes: Partial<InvoicesTable> = {
      updated_at: isoNow(ctx.clock),
      ...(await applyDraftFields(tx, ctx, accountId, row, patch)),
    };
    if (patch.due_date !== undefined) changes.due_date = patch.due_date;
    requireDateOrder(
      { issue: changes.issue_date ?? row.issue_date, end: changes.due_date ?? row.due_date },
      'due_date',
      patch.due_date !== undefined ? 'due_date' : 'issue_date',
    );
    await tx.updateTable('invoices').set(changes).where('id', '=', row.id).execute();
    return reload(tx, ctx, row);
  });
}

/** The e-mail of an invoice as it stands: a balance already partly paid is stated as such. */
export function invoiceMail(invoice: Invoice, config: StoredConfig, hubLink?: string | null) {
  const balanceCents = toCents(invoice.balance);
  const money = (cents: number) => formatMoney(cents, invoice.currency, config.locale);
  const amountLine =
    invoice.amount_paid > 0
      ? `Invoice ${invoice.number} has a balance of ${money(balanceCents)} (of ${money(toCents(invoice.total))}), due ${invoice.due_date}.`
      : `Please find attached invoice ${invoice.number} for ${money(balanceCents)}, due ${invoice.due_date}.`;
  return {
    subject: `Invoice ${invoice.number} from ${config.business_name}`,
    body: [
      `Hi ${invoice.customer.name},`,
      amountLine,
      invoice.notes,
      hubLink && `See it, its payments and how to pay here: ${hubLink}`,
      `Thank you for your business.\n${mailSignature(config)}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

/**
 * Puts the invoice's e-mail in the outbox. The invoice turns sent only when the e-mail has gone
 * out (the mail worker records it); until then it stays as it was, and a second Send while one
 * waits is refused rather than queueing a duplicate.
 */
export async function sendInvoice(ctx: AppContext, accountId: string, ref: string): Promise<Invoice> {
  return ctx.db
    .transaction()
    .execute(async (tx) => queueInvoiceMail(tx, ctx, accountId, await findRow(tx, accountId, ref)));
}

/** Send, inside the caller's transaction (a service plan sends the invoice of a finished visit). */
export async function queueInvoiceMail(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  row: InvoicesTable,
): Promise<Invoice> {
  if (row.status === 'void') throw invalidState(`Invoice ${row.number} is void and cannot be sent.`);
  if (row.status === 'paid') {
    throw invalidState(`Invoice ${row.number} is paid in full; there is nothing to send.`);
  }
  await refuseWhileMailWaits(tx, row, 'Invoice');
  const { config } = await getAccount(tx, accountId);
  const invoice = await reload(tx, ctx, row);
  await queueDocumentMail(tx, ctx, accountId, {
    kind: 'invoice',
    row,
    customer: invoice.customer,
    config,
    compose: (hubLink) => invoiceMail(invoice, config, hubLink),
  });
  return invoice;
}

/** Records that the customer has the invoice without e-mail from Shopdesk (handed over, posted). */
export async function markInvoiceSent(ctx: AppContext, accountId: string, ref: string): Promise<Invoice> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'draft') throw invalidState(`Invoice ${row.number} is ${row.status}, not a draft.`);
    await markDraftSent(tx, 'invoices', row.id, isoNow(ctx.clock));
    return reload(tx, ctx, row);
  });
}

/** Void cancels an invoice that took no money; one with payments stays on the books (refunds are not modelled). */
export async function voidInvoice(ctx: AppContext, accountId: string, ref: string): Promise<Invoice> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status === 'void') throw invalidState(`Invoice ${row.number} is already void.`);
    if (row.amount_paid_cents > 0 || row.status === 'paid') {
      throw invalidState(`Invoice ${row.number} has payments recorded and cannot be voided.`);
    }
    const now = isoNow(ctx.clock);
    await tx
      .updateTable('invoices')
      .set({ status: 'void', voided_at: now, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await cancelWaitingMail(tx, row.id, `Invoice ${row.number} was voided before this e-mail went out.`, now);
    return reload(tx, ctx, row);
  });
}

/** Deletes a draft. An invoice that went out is part of the books: it is voided, never deleted. */
export async function deleteInvoice(
  ctx: AppContext,
  accountId: string,
  ref: string,
): Promise<DeletedDocument> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'draft') {
      const advice =
        row.status === 'sent' ? 'Void it instead.' : 'It stays on record; only drafts can be deleted.';
      throw invalidState(`Invoice ${row.number} is ${row.status} and cannot be deleted. ${advice}`);
    }
    await cancelWaitingMail(tx, row.id, `Invoice ${row.number} was deleted.`, isoNow(ctx.clock));
    await deleteDocumentBody(tx, row.id);
    await tx.deleteFrom('invoices').where('id', '=', row.id).execute();
    return { id: row.id, object: 'invoice', deleted: true };
  });
}
