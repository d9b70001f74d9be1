import { divRoundHalfAway, fromCents } from '../../shared/money';
import {
  SALES_TAX_MAX_DAYS,
  type SalesTaxLine,
  type SalesTaxQuery,
  type SalesTaxReport,
} from '../../shared/schemas/sales-tax';
import { addDays } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import { csvField } from '../documents/export';
import { getAccount } from './accounts';
import { addMonths, checkRange, period, today } from './overview/periods';

/**
 * The sales-tax report (docs/reminders-and-tax.md): per tax name and rate, the sales it was charged
 * on and the tax, on invoices issued in a period (accrual) or on payments received in it (cash).
 * Figures are integer cents until the answer is written.
 */

/** Invoices that count as issued: sent, or paid without being sent. Drafts and void ones never do. */
const ISSUED = ['sent', 'partially_paid', 'paid'] as const;

interface LineSums {
  name: string;
  rate: string;
  taxable: number;
  tax: number;
  invoices: Set<string>;
}

interface Sums {
  lines: Map<string, LineSums>;
  sales: number;
  untaxed: number;
  tax: number;
  invoices: Set<string>;
  payments: number;
}

function emptySums(): Sums {
  return { lines: new Map(), sales: 0, untaxed: 0, tax: 0, invoices: new Set(), payments: 0 };
}

function addToLine(sums: Sums, invoiceId: string, name: string, rate: string, taxable: number, tax: number) {
  const key = `${name}\u0000${rate}`;
  let line = sums.lines.get(key);
  if (!line) {
    line = { name, rate, taxable: 0, tax: 0, invoices: new Set() };
    sums.lines.set(key, line);
  }
  line.taxable += taxable;
  line.tax += tax;
  line.invoices.add(invoiceId);
}

interface TaxRow {
  document_id: string;
  name: string;
  rate: string;
  amount_cents: number;
}

async function taxesOf(db: Queryable, invoiceIds: string[]): Promise<Map<string, TaxRow[]>> {
  const byInvoice = new Map<string, TaxRow[]>();
  // SQLite allows at most 32,766 bound values in a statement; a quarter's invoices may pass that.
  for (let i = 0; i < invoiceIds.length; i += 10_000) {
    const rows = await db
      .selectFrom('document_taxes')
      .select(['document_id', 'name', 'rate', 'amount_cents', 'position'])
      .where('document_id', 'in', invoiceIds.slice(i, i + 10_000))
      .orderBy('document_id')
      .orderBy('position')
      .execute();
    for (const row of rows) {
      const list = byInvoice.get(row.document_id) ?? [];
      list.push(row);
      byInvoice.set(row.document_id, list);
    }
  }
  return byInvoice;
}

/** Accrual: every issued invoice dated in the period, its whole subtotal and each tax as charged. */
async function accrualSums(db: Queryable, accountId: string, from: string, to: string): Promise<Sums> {
  const invoices = await db
    .selectFrom('invoices')
    .select(['id', 'subtotal_cents'])
    .where('account_id', '=', accountId)
    .where('issue_date', '>=', from)
    .where('issue_date', '<=', to)
    .where('status', 'in', ISSUED)
    .execute();
  const taxes = await taxesOf(
    db,
    invoices.map((i) => i.id),
  );
  const sums = emptySums();
  for (const invoice of invoices) {
    sums.invoices.add(invoice.id);
    sums.sales += invoice.subtotal_cents;
    const charged = taxes.get(invoice.id) ?? [];
    if (charged.length === 0) sums.untaxed += invoice.subtotal_cents;
    for (const tax of charged) {
      sums.tax += tax.amount_cents;
      addToLine(sums, invoice.id, tax.name, tax.rate, invoice.subtotal_cents, tax.amount_cents);
    }
  }
  return sums;
}

/**
 * The part of `whole` that `paidSoFar` of `total` carries, rounded half away from zero. Allocating
 * each payment the difference of this between before and after it makes the payments of a fully
 * paid invoice add up to `whole` exactly, whatever the number and sizes of the payments.
 */
function shareOf(whole: number, paidSoFar: number, total: number): number {
  return Number(divRoundHalfAway(BigInt(whole) * BigInt(paidSoFar), BigInt(total)));
}

/**
 * Cash: every payment received in the period carries its share of its invoice's sales and of each
 * tax, cumulatively over the invoice's payments in the order they were received (see shareOf).
 * Money paid beyond the invoice's total (two devices recording one payment) carries nothing.
 */
async function cashSums(db: Queryable, accountId: string, start: string, end: string): Promise<Sums> {
  const inPeriod = db
    .selectFrom('payments')
    .select('invoice_id')
    .where('account_id', '=', accountId)
    .where('paid_at', '>=', start)
    .where('paid_at', '<', end);
  const invoices = await db
    .selectFrom('invoices')
    .select(['id', 'subtotal_cents', 'total_cents'])
    .where('account_id', '=', accountId)
    .where('id', 'in', inPeriod)
    .where('total_cents', '>', 0)
    .execute();
  const payments = await db
    .selectFrom('payments')
    .select(['invoice_id', 'amount_cents', 'paid_at'])
    .where('account_id', '=', accountId)
    .where('invoice_id', 'in', inPeriod)
    .where('paid_at', '<', end)
    .orderBy('invoice_id')
    .orderBy('paid_at')
    .orderBy('id')
    .execute();
  const taxes = await taxesOf(
    db,
    invoices.map((i) => i.id),
  );
  const byId = new Map(invoices.map((i) => [i.id, i]));
  const paidSoFar = new Map<string, number>();
  const sums = emptySums();
  for (const payment of payments) {
    const invoice = byId.get(payment.invoice_id);
    if (!invoice) continue;
    const total = invoice.total_cents;
    const before = paidSoFar.get(invoice.id) ?? 0;
    const after = Math.min(total, before + payment.amount_cents);
    paidSoFar.set(invoice.id, after);
    if (payment.paid_at < start) continue;
    sums.payments += 1;
    if (after === before) continue;
    const charged = taxes.get(invoice.id) ?? [];
    const taxShares = charged.map(
      (tax) => shareOf(tax.amount_cents, after, total) - shareOf(tax.amount_cents, before, total),
    );
    const taxPart = taxShares.reduce((sum, cents) => sum + cents, 0);
    const salesPart = after - before - taxPart;
    sums.invoices.add(invoice.id);
    sums.sales += salesPart;
    sums.tax += taxPart;
    if (charged.length === 0) sums.untaxed += salesPart;
    for (const [i, tax] of charged.entries()) {
      addToLine(sums, invoice.id, tax.name, tax.rate, salesPart, taxShares[i]!);
    }
  }
  return sums;
}

/** The first and last day of the calendar quarter holding `date`. */
export function quarterOf(date: string): { from: string; to: string } {
  const month = Number(date.slice(5, 7));
  const first = `${date.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
  return { from: first, to: addDays(addMonths(first, 3), -1) };
}

export async function getSalesTaxReport(
  ctx: AppContext,
  accountId: string,
  query: Omit<SalesTaxQuery, 'format'>,
): Promise<SalesTaxReport> {
  const { config } = await getAccount(ctx.db, accountId);
  const quarter = quarterOf(query.from ?? query.to ?? today(ctx, config.timezone));
  const from = query.from ?? quarter.from;
  const to = query.to ?? (query.from ? quarterOf(from).to : quarter.to);
  checkRange(from, to, SALES_TAX_MAX_DAYS);
  const range = period(from, to, config.timezone);
  // One read transaction, so payments recorded meanwhile cannot split the figures.
  const sums = await ctx.db
    .transaction()
    .execute((tx) =>
      query.basis === 'cash'
        ? cashSums(tx, accountId, range.start, range.end)
        : accrualSums(tx, accountId, from, to),
    );
  const registrations = new Map(config.tax_registrations.map((r) => [r.tax_name.toLowerCase(), r.number]));
  const taxes: SalesTaxLine[] = [...sums.lines.values()]
    .sort((a, b) => a.name.localeCompare(b.name) || Number(a.rate) - Number(b.rate))
    .map((line) => ({
      name: line.name,
      rate: Number(line.rate),
      registration_number: registrations.get(line.name.toLowerCase()) ?? null,
      taxable_sales: fromCents(line.taxable),
      tax: fromCents(line.tax),
      invoices: line.invoices.size,
    }));
  return {
    object: 'sales_tax_report',
    currency: config.currency,
    basis: query.basis,
    from,
    to,
    taxes,
    totals: {
      sales: fromCents(sums.sales),
      untaxed_sales: fromCents(sums.untaxed),
      tax: fromCents(sums.tax),
      total: fromCents(sums.sales + sums.tax),
      invoices: sums.invoices.size,
      payments: sums.payments,
    },
  };
}

const amount = (value: number) => value.toFixed(2);

/** The report as a CSV file: one row per tax and rate, then the untaxed sales and the totals. */
export function salesTaxCsv(report: SalesTaxReport): { filename: string; csv: string } {
  const rows: unknown[][] = [
    ['tax', 'rate_percent', 'registration_number', 'taxable_sales', 'tax', 'invoices', 'currency'],
    ...report.taxes.map((line) => [
      line.name,
      Number((line.rate * 100).toFixed(4)),
      line.registration_number,
      amount(line.taxable_sales),
      amount(line.tax),
      line.invoices,
      report.currency,
    ]),
    ['Untaxed sales', null, null, amount(report.totals.untaxed_sales), amount(0), null, report.currency],
    [
      'Total',
      null,
      null,
      amount(report.totals.sales),
      amount(report.totals.tax),
      report.totals.invoices,
      report.currency,
    ],
  ];
  return {
    filename: `sales-tax-${report.from}-to-${report.to}-${report.basis}.csv`,
    csv: rows.map((row) => `${row.map(csvField).join(',')}\r\n`).join(''),
  };
}
