import { computeTotals, fromCents } from '../../shared/money';
import { placeLine } from '../../shared/place';
import type { Invoice } from '../../shared/schemas/invoice';
import { dateInZone } from '../../shared/time-zone';
import { renderInvoiceData } from '../documents/pdf';
import { readStoredConfig } from '../domain/accounts';
import { isOverdue, statusAfterPayments } from '../domain/invoice-status';
import { documentParts } from './records';
import type { ClientHubRows, Row } from './rows';

const text = (value: unknown) => (value == null ? null : String(value));

/**
 * An invoice's PDF from the rows the serving storage holds (docs/client-hub.md, "Serving"): the
 * documents module's one invoice layout, with the invoice built from its synced rows as the
 * install's API presents it (totals by computeTotals, the status its payments make it, overdue in
 * the business's zone), so the hosted hub prints it while every owner computer is off.
 */
export async function invoicePdfFromRows(
  rows: ClientHubRows,
  accountId: string,
  invoiceId: string,
  now: Date,
): Promise<{ filename: string; pdf: Buffer }> {
  const [found, account, logo] = await Promise.all([
    rows.readRow(accountId, 'invoices', invoiceId),
    rows.readRow(accountId, 'accounts', accountId),
    rows.readRow(accountId, 'business_logos', accountId),
  ]);
  if (!found || !account) throw new Error(`No invoice ${invoiceId} in ${accountId}`);
  const config = readStoredConfig(String(account.row.config));
  const row = found.row;
  const [{ lines, taxes }, payments, customer, place] = await Promise.all([
    documentParts(rows, accountId, [row]),
    rows.readRows(accountId, 'payments', { column: 'invoice_id', values: [invoiceId] }),
    rows.readRow(accountId, 'customers', String(row.customer_id)),
    row.property_id ? rows.readRow(accountId, 'properties', String(row.property_id)) : undefined,
  ]);
  const byPosition = (a: Row, b: Row) => Number(a.position) - Number(b.position);
  const totals = computeTotals(
    lines.sort(byPosition).map((l) => ({
      description: String(l.description),
      quantity: Number(l.quantity),
      unit_price: Number(l.unit_price),
    })),
    taxes.sort(byPosition).map((t) => ({ name: String(t.name), rate: Number(t.rate) })),
  );
  const paid = payments
    .sort(
      (a, b) =>
        String(a.paid_at).localeCompare(String(b.paid_at)) || String(a.id).localeCompare(String(b.id)),
    )
    .map((p) => ({
      id: String(p.id),
      amount: fromCents(Number(p.amount_cents)),
      method: text(p.method),
      paid_at: String(p.paid_at),
      created_at: String(p.created_at),
    }));
  const paidCents = payments.reduce((sum, p) => sum + Number(p.amount_cents), 0);
  const status = statusAfterPayments(String(row.status), paidCents, totals.total_cents);
  const stored = {
    status,
    total_cents: totals.total_cents,
    amount_paid_cents: paidCents,
    due_date: String(row.due_date),
  };
  const invoice: Invoice = {
    id: invoiceId,
    object: 'invoice',
    number: String(row.number),
    status: isOverdue(stored, dateInZone(now, config.timezone)) ? 'overdue' : status,
    customer: {
      id: String(row.customer_id),
      name: String(customer?.row.name ?? ''),
      email: text(customer?.row.email),
    },
    items: totals.lines.map((l) => ({ ...l, amount: fromCents(l.amount_cents) })),
    taxes: totals.taxes.map((t) => ({ name: t.name, rate: t.rate, amount: fromCents(t.amount_cents) })),
    subtotal: fromCents(totals.subtotal_cents),
    tax_total: fromCents(totals.tax_total_cents),
    total: fromCents(totals.total_cents),
    amount_paid: fromCents(paidCents),
    balance: fromCents(totals.total_cents - paidCents),
    currency: String(row.currency),
    issue_date: String(row.issue_date),
    due_date: String(row.due_date),
    payments: paid,
    notes: text(row.notes),
    property_id: text(row.property_id),
    quote_id: text(row.quote_id),
    job_id: text(row.job_id),
    sent_at: text(row.sent_at),
    paid_at: text(row.paid_at),
    voided_at: text(row.voided_at),
    created_at: String(row.created_at),
    updated_at: String(row.updated_at),
  };
  const parties = {
    customer: { ...invoice.customer, address: text(customer?.row.address) },
    service: place
      ? {
          label: text(place.row.label),
          address: placeLine(place.row as unknown as Parameters<typeof placeLine>[0]),
        }
      : null,
  };
  const image = logo ? Buffer.from(String(logo.row.data), 'base64') : null;
  return renderInvoiceData({ config, invoice, parties, logo: image, now }, { delivered: true });
}
