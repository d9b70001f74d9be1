import type { Invoice } from '../../shared/schemas/invoice';
import type { Quote } from '../../shared/schemas/quote';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import type { MailMessagesTable } from '../db/schema';
import { getAccount } from './accounts';
import { markDraftSent } from './documents';
import { getInvoice, invoiceMail } from './invoices';
import { getQuote, quoteMail } from './quotes';

/**
 * The e-mail of an invoice or quote is the document reaching the customer: the document counts as
 * sent only once its e-mail has gone out, and an e-mail that waited is written afresh when it
 * leaves, so it never asks for money already paid nor goes to an address the customer left.
 */

export type Outgoing = { to: string; subject: string; body: string } | { cancel: string };

/** Why no e-mail asking for an invoice's money may leave now (its own, a reminder), or null. */
export function invoiceMailHeldBack(invoice: Invoice): string | null {
  if (invoice.status === 'void') return `Invoice ${invoice.number} was voided before it went out.`;
  if (invoice.status === 'paid')
    return `Invoice ${invoice.number} was paid in full before this e-mail went out.`;
  return null;
}

/** Why no e-mail offering a quote may leave now (its own, a follow-up), or null. */
export function quoteMailHeldBack(quote: Quote): string | null {
  if (quote.status !== 'draft' && quote.status !== 'sent') {
    return `Quote ${quote.number} is ${quote.status}; it is no longer offered.`;
  }
  return null;
}

/** What a waiting invoice or quote e-mail says as it leaves now, or why it must not leave. */
export async function composeDocumentMail(ctx: AppContext, row: MailMessagesTable): Promise<Outgoing | null> {
  if (!row.document_id || row.kind === 'winback') return null;
  const { config } = await getAccount(ctx.db, row.account_id);
  if (row.kind === 'invoice') {
    const invoice = await getInvoice(ctx, row.account_id, row.document_id);
    const heldBack = invoiceMailHeldBack(invoice);
    if (heldBack) return { cancel: heldBack };
    if (!invoice.customer.email) return { cancel: noEmail(invoice.customer.name) };
    return { to: invoice.customer.email, ...invoiceMail(invoice, config, queuedHubLink(row.body)) };
  }
  const quote = await getQuote(ctx, row.account_id, row.document_id);
  const heldBack = quoteMailHeldBack(quote);
  if (heldBack) return { cancel: heldBack };
  if (!quote.customer.email) return { cancel: noEmail(quote.customer.name) };
  return { to: quote.customer.email, ...quoteMail(quote, config, queuedHubLink(row.body)) };
}

/**
 * The client hub link issued when the e-mail was queued (quotes.ts#sendQuote,
 * invoices.ts#queueInvoiceMail, a visit reminder): the e-mail written afresh as it leaves keeps it,
 * so a retried send never issues another.
 */
export function queuedHubLink(body: string): string | null {
  return /https?:\/\/\S+\/c\/lnk_[0-9a-z]{26}\.[A-Za-z0-9_-]{43}/.exec(body)?.[0] ?? null;
}

/** The e-mail was removed from the customer while the message waited. */
const noEmail = (name: string) =>
  `${name} no longer has an e-mail address; download or print the PDF instead.`;

/** Once its e-mail went out, a draft document is sent, as of that moment. */
export async function markDocumentSent(db: Queryable, row: MailMessagesTable, sentAt: string): Promise<void> {
  // A reminder is about a document already sent; it never changes the document.
  if (!row.document_id || row.kind === 'winback' || row.reminder) return;
  const table = row.kind === 'invoice' ? 'invoices' : 'quotes';
  await markDraftSent(db, table, row.document_id, sentAt);
  await db
    .updateTable(table)
    .set({ sent_at: sentAt })
    .where('id', '=', row.document_id)
    .where('sent_at', 'is', null)
    .execute();
}
