import type { StoredConfig } from '../../shared/schemas/config';
import type { Invoice } from '../../shared/schemas/invoice';
import type { Quote } from '../../shared/schemas/quote';
import type { QuoteApproval } from '../domain/client-actions';
import { type Formatters, MUTED } from './pdf-format';

/** What an invoice's or a quote's PDF says besides its lines: stamps, totals' labels, closing words. */

export function taxRows(document: Invoice | Quote, f: Formatters) {
  return document.taxes.map((tax) => ({
    label: `${tax.name} (${f.percent(tax.rate)})`,
    value: f.money(tax.amount),
  }));
}

export const INVOICE_STAMPS: Partial<Record<Invoice['status'], { text: string; color: string }>> = {
  paid: { text: 'PAID', color: '#1e7b34' },
  void: { text: 'VOID', color: '#b42318' },
  overdue: { text: 'OVERDUE', color: '#b42318' },
  draft: { text: 'DRAFT', color: MUTED },
};

export const QUOTE_STAMPS: Partial<Record<Quote['status'], { text: string; color: string }>> = {
  accepted: { text: 'ACCEPTED', color: '#1e7b34' },
  converted: { text: 'ACCEPTED', color: '#1e7b34' },
  declined: { text: 'DECLINED', color: '#b42318' },
  expired: { text: 'EXPIRED', color: '#b42318' },
  draft: { text: 'DRAFT', color: MUTED },
};

/**
 * How a document is printed: `delivered` is the copy the customer gets by e-mail, which the mail
 * worker renders while the document is still a draft (it turns sent once the e-mail is out), so it
 * must not carry the DRAFT stamp.
 */
export interface PdfOptions {
  delivered?: boolean;
}

export function stampOf<S extends string>(
  stamps: Partial<Record<S, { text: string; color: string }>>,
  status: S,
  options: PdfOptions,
) {
  if (options.delivered && status === 'draft') return null;
  return stamps[status] ?? null;
}

/**
 * An accepted quote the customer approved on the client hub carries the record of it: who typed
 * their name, when (the business's time) and from which address (docs/client-hub.md).
 */
export function quoteClosing(quote: Quote, approval: QuoteApproval | null, f: Formatters): string {
  if (approval && (quote.status === 'accepted' || quote.status === 'converted')) {
    const from = approval.ip ? ` (from ${approval.ip})` : '';
    return `Approved by ${approval.name} on ${f.instantTime(approval.at)}${from}.`;
  }
  return `This quote is valid until ${f.date(quote.valid_until)}. Reply to accept it or ask us anything.`;
}

export function invoiceClosing(invoice: Invoice, f: Formatters): string {
  if (invoice.status === 'void') return 'This invoice has been voided and is not payable.';
  if (invoice.status === 'paid') return 'Paid in full. Thank you for your business.';
  return `Thank you for your business. Please pay by ${f.date(invoice.due_date)}.`;
}

/** The business's registration number of each tax the invoice charges (Settings › Business › Taxes). */
export function registrationFacts(invoice: Invoice, config: StoredConfig): Array<[string, string]> {
  const charged = new Set(invoice.taxes.map((tax) => tax.name.toLowerCase()));
  return config.tax_registrations
    .filter((registration) => charged.has(registration.tax_name.toLowerCase()))
    .map((registration) => [`${registration.tax_name} reg. no.`, registration.number]);
}

/** A file name safe in a Content-Disposition header and on every file system. */
export function fileName(number: string): string {
  return `${number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
}
