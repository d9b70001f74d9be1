import { type CompiledQuery, type SelectQueryBuilder, sql } from 'kysely';
import { fromCents } from '../../shared/money';
import {
  SALES_TAX_MAX_DAYS,
  type SalesTaxLine,
  type SalesTaxQuery,
  type SalesTaxReport,
} from '../../shared/schemas/sales-tax';
import { addDays, dateInZone } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import { todayIn } from '../lib/clock';
import { csvRow } from '../lib/csv';
import { getAccount } from './accounts';
import { ISSUED_STATUSES } from './invoice-status';
import { addMonths, checkRange, period } from './overview/periods';

/**
 * The sales-tax report (docs/reminders-and-tax.md): per tax name and rate, the sales it was charged
 * on and the tax, on invoices issued in a period (accrual) or on payments received in it (cash).
 * Figures are integer cents until the answer is written.
 */

interface LineSums {
  name: string;
  rate: string;
  taxable: number;
  tax: number;
  invoices: number;
}

/**
 * One row of the CSV's detail section: an invoice issued (accrual) or a payment received (cash),
 * with the sales and each tax it counts for, so the rows add up to the totals above them. Cents.
 */
export interface SalesTaxDetail {
  invoice: string;
  /** The issue date (accrual), or the day the payment was received in the business's zone (cash). */
  date: string;
  customer: string;
  sales: number;
  /** Tax by taxKey(name, rate). */
  taxes: Map<string, number>;
  total: number;
}

/** A tax's sums as numbers, whatever type the database driver read them as. */
const lineSums = (line: LineSums): LineSums => ({
  ...line,
  taxable: Number(line.taxable),
  tax: Number(line.tax),
  invoices: Number(line.invoices),
});

const taxKey = (name: string, rate: string | number) => `${name}\u0000${Number(rate)}`;

interface Sums {
  lines: LineSums[];
  sales: number;
  untaxed: number;
  tax: number;
  invoices: number;
  payments: number;
  /** Filled only for the CSV file: the JSON report has no use for them. */
  details: SalesTaxDetail[];
}

interface ChargedTax {
  name: string;
  rate: string;
  amount_cents: number;
}

/** The taxes each of some invoices (a query of their ids) charged, in their order on the invoice. */
function chargedTaxesQuery<DB, TB extends keyof DB>(
  db: Queryable,
  invoiceIds: SelectQueryBuilder<DB, TB, Record<string, string>>,
) {
  return db
    .selectFrom('document_taxes')
    .select(['document_id', 'name', 'rate', 'amount_cents'])
    .where('document_id', 'in', invoiceIds)
    .orderBy('document_id')
    .orderBy('position')
    .compile();
}

function byInvoice(rows: Array<ChargedTax & { document_id: string }>): Map<string, ChargedTax[]> {
  const taxes = new Map<string, ChargedTax[]>();
  for (const row of rows) {
    const list = taxes.get(row.document_id) ?? [];
    list.push(row);
    taxes.set(row.document_id, list);
  }
  return taxes;
}

/**
 * Runs compiled queries in one read transaction (so payments recorded meanwhile cannot split the
 * figures): on the server's read worker where there is one, else on its connection.
 */
async function readTogether(ctx: AppContext, queries: CompiledQuery[]): Promise<unknown[][]> {
  if (ctx.readSnapshot) return ctx.readSnapshot(queries.map(({ sql, parameters }) => ({ sql, parameters })));
  return ctx.db.transaction().execute(async (tx) => {
    const rows: unknown[][] = [];
    for (const query of queries) rows.push((await tx.executeQuery(query)).rows);
    return rows;
  });
}

function issuedInvoices(db: Queryable, accountId: string, from: string, to: string) {
  return db
    .selectFrom('invoices as i')
    .where('i.account_id', '=', accountId)
    .where('i.issue_date', '>=', from)
    .where('i.issue_date', '<=', to)
    .where('i.status', 'in', ISSUED_STATUSES);
}

/** Accrual: every issued invoice dated in the period, its whole subtotal and each tax as charged. */
async function accrualSums(
  ctx: AppContext,
  accountId: string,
  from: string,
  to: string,
  withDetails: boolean,
): Promise<Sums> {
  const db = ctx.db;
  const issued = issuedInvoices(db, accountId, from, to);
  const queries = [
    issued
      .innerJoin('document_taxes as t', 't.document_id', 'i.id')
      .select([
        't.name',
        't.rate',
        sql<number>`sum(i.subtotal_cents)`.as('taxable'),
        sql<number>`sum(t.amount_cents)`.as('tax'),
        sql<number>`count(DISTINCT i.id)`.as('invoices'),
      ])
      .groupBy(['t.name', 't.rate'])
      .compile(),
    issued
      .select([
        sql<number>`coalesce(sum(i.subtotal_cents), 0)`.as('sales'),
        sql<number>`count(*)`.as('invoices'),
        sql<number>`coalesce(sum(CASE WHEN NOT EXISTS (SELECT 1 FROM document_taxes x WHERE x.document_id = i.id) THEN i.subtotal_cents ELSE 0 END), 0)`.as(
          'untaxed',
        ),
      ])
      .compile(),
  ];
  if (withDetails) {
    queries.push(
      issued
        .innerJoin('customers as c', 'c.id', 'i.customer_id')
        .select(['i.id', 'i.number', 'i.issue_date', 'c.name', 'i.subtotal_cents', 'i.total_cents'])
        .orderBy('i.issue_date')
        .orderBy('i.number')
        .compile(),
      chargedTaxesQuery(db, issued.select('i.id')),
    );
  }
  const [lines, [totals], invoices, charged] = (await readTogether(ctx, queries)) as [
    Array<{ name: string; rate: string; taxable: number; tax: number; invoices: number }>,
    Array<{ sales: number; invoices: number; untaxed: number }>,
    DetailInvoice[] | undefined,
    Array<ChargedTax & { document_id: string }> | undefined,
  ];
  return {
    lines: lines.map(lineSums),
    sales: Number(totals!.sales),
    untaxed: Number(totals!.untaxed),
    tax: lines.reduce((sum, line) => sum + Number(line.tax), 0),
    invoices: Number(totals!.invoices),
    payments: 0,
    details: invoices ? accrualDetails(invoices, byInvoice(charged ?? [])) : [],
  };
}

interface DetailInvoice {
  id: string;
  number: string;
  issue_date: string;
  name: string;
  subtotal_cents: number;
  total_cents: number;
}

/** Each issued invoice as charged: its subtotal, each tax and its total, by issue date. */
function accrualDetails(invoices: DetailInvoice[], charged: Map<string, ChargedTax[]>): SalesTaxDetail[] {
  return invoices.map((invoice) => ({
    invoice: invoice.number,
    date: invoice.issue_date,
    customer: invoice.name,
    sales: invoice.subtotal_cents,
    taxes: new Map((charged.get(invoice.id) ?? []).map((t) => [taxKey(t.name, t.rate), t.amount_cents])),
    total: invoice.total_cents,
  }));
}

interface ShareRow {
  payment_id: string;
  position: number;
  name: string | null;
  rate: string | null;
  sales_cents: number;
  tax_cents: number;
  paid_at: string;
  number: string;
  customer_name: string;
}

/**
 * Cash: every payment received in the period carries its share of its invoice's sales and of each
 * tax, cumulatively over the invoice's payments in the order they were received, rounded so the
 * payments of a fully paid invoice add up to its tax exactly. Money paid beyond the invoice's
 * total (two devices recording one payment) carries nothing. The shares are kept at write time
 * (payment_tax_shares, migration 0029): the report sums one range of that table.
 */
async function cashSums(
  ctx: AppContext,
  accountId: string,
  range: { start: string; end: string },
  timeZone: string,
  withDetails: boolean,
): Promise<Sums> {
  const received = ctx.db
    .selectFrom('payment_tax_shares as s')
    .where('s.account_id', '=', accountId)
    .where('s.paid_at', '>=', range.start)
    .where('s.paid_at', '<', range.end);
  const queries = [
    received
      .where('s.position', '=', -1)
      .select([
        sql<number>`count(*)`.as('payments'),
        sql<number>`coalesce(sum(s.sales_cents), 0)`.as('sales'),
        sql<number>`coalesce(sum(CASE WHEN s.untaxed = 1 THEN s.sales_cents ELSE 0 END), 0)`.as('untaxed'),
        sql<number>`coalesce(sum(s.tax_cents), 0)`.as('tax'),
        sql<number>`count(DISTINCT CASE WHEN s.moved = 1 THEN s.invoice_id END)`.as('invoices'),
      ])
      .compile(),
    // Rates are grouped as numbers, as taxKey does: "0.05" and "0.050" are one rate.
    received
      .where('s.position', '>=', 0)
      .where('s.moved', '=', 1)
      .select([
        's.name',
        sql<string>`min(s.rate)`.as('rate'),
        sql<number>`sum(s.sales_cents)`.as('taxable'),
        sql<number>`sum(s.tax_cents)`.as('tax'),
        sql<number>`count(DISTINCT s.invoice_id)`.as('invoices'),
      ])
      .groupBy(['s.name', sql`s.rate + 0.0`])
      .compile(),
  ];
  if (withDetails) {
    queries.push(
      received
        .innerJoin('invoices as i', 'i.id', 's.invoice_id')
        .innerJoin('customers as c', 'c.id', 'i.customer_id')
        .select([
          's.payment_id',
          's.position',
          's.name',
          's.rate',
          's.sales_cents',
          's.tax_cents',
          's.paid_at',
          'i.number',
          'c.name as customer_name',
        ])
        .orderBy('s.paid_at')
        .orderBy('s.payment_id')
        .orderBy('s.position')
        .compile(),
    );
  }
  const [[totals], lines, shares] = (await readTogether(ctx, queries)) as [
    Array<{ payments: number; sales: number; untaxed: number; tax: number; invoices: number }>,
    Array<{ name: string; rate: string; taxable: number; tax: number; invoices: number }>,
    ShareRow[] | undefined,
  ];
  return {
    lines: lines.map(lineSums),
    sales: Number(totals!.sales),
    untaxed: Number(totals!.untaxed),
    tax: Number(totals!.tax),
    invoices: Number(totals!.invoices),
    payments: Number(totals!.payments),
    details: shares ? cashDetails(shares, timeZone) : [],
  };
}

/** Each payment received, with its sales part, each tax's part and the money it brought. */
function cashDetails(shares: ShareRow[], timeZone: string): SalesTaxDetail[] {
  const details: SalesTaxDetail[] = [];
  let payment: SalesTaxDetail | undefined;
  for (const share of shares) {
    if (share.position === -1) {
      payment = {
        invoice: share.number,
        date: dateInZone(new Date(share.paid_at), timeZone),
        customer: share.customer_name,
        sales: share.sales_cents,
        taxes: new Map(),
        total: share.sales_cents + share.tax_cents,
      };
      details.push(payment);
    } else {
      payment!.taxes.set(taxKey(share.name!, share.rate!), share.tax_cents);
    }
  }
  return details.sort((a, b) => a.date.localeCompare(b.date) || a.invoice.localeCompare(b.invoice));
}

/** The first and last day of the calendar quarter holding `date`. */
export function quarterOf(date: string): { from: string; to: string } {
  const month = Number(date.slice(5, 7));
  const first = `${date.slice(0, 4)}-${String(month - ((month - 1) % 3)).padStart(2, '0')}-01`;
  return { from: first, to: addDays(addMonths(first, 3), -1) };
}

/** The report, and for the CSV file the invoices or payments behind it. */
export interface SalesTaxFigures {
  report: SalesTaxReport;
  details: SalesTaxDetail[];
}

export async function salesTaxFigures(
  ctx: AppContext,
  accountId: string,
  query: Omit<SalesTaxQuery, 'format'>,
  withDetails: boolean,
): Promise<SalesTaxFigures> {
  const { config } = await getAccount(ctx.db, accountId);
  const quarter = quarterOf(query.from ?? query.to ?? todayIn(ctx.clock, config.timezone));
  const from = query.from ?? quarter.from;
  const to = query.to ?? (query.from ? quarterOf(from).to : quarter.to);
  checkRange(from, to, SALES_TAX_MAX_DAYS);
  const range = period(from, to, config.timezone);
  const sums =
    query.basis === 'cash'
      ? await cashSums(ctx, accountId, range, config.timezone, withDetails)
      : await accrualSums(ctx, accountId, from, to, withDetails);
  const registrations = new Map(config.tax_registrations.map((r) => [r.tax_name.toLowerCase(), r.number]));
  const taxes: SalesTaxLine[] = [...sums.lines]
    .sort((a, b) => a.name.localeCompare(b.name) || Number(a.rate) - Number(b.rate))
    .map((line) => ({
      name: line.name,
      rate: Number(line.rate),
      registration_number: registrations.get(line.name.toLowerCase()) ?? null,
      taxable_sales: fromCents(line.taxable),
      tax: fromCents(line.tax),
      invoices: line.invoices,
    }));
  const report: SalesTaxReport = {
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
      invoices: sums.invoices,
      payments: sums.payments,
    },
  };
  return { report, details: sums.details };
}

const amount = (value: number) => value.toFixed(2);

const percent = (rate: number) => Number((rate * 100).toFixed(4));

/**
 * The report as a CSV file: one row per tax and rate, the untaxed sales and the totals; then, after
 * an empty row, the detail an accountant checks them against: each invoice issued (accrual) or each
 * payment received (cash), with its sales, each tax in a column of its own, and its total.
 */
export function salesTaxCsv({ report, details }: SalesTaxFigures): { filename: string; csv: string } {
  const cash = report.basis === 'cash';
  const rows: unknown[][] = [
    ['tax', 'rate_percent', 'registration_number', 'taxable_sales', 'tax', 'invoices', 'currency'],
    ...report.taxes.map((line) => [
      line.name,
      percent(line.rate),
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
    [],
    [
      'invoice',
      cash ? 'paid_on' : 'issue_date',
      'customer',
      'sales_before_tax',
      ...report.taxes.map((line) => `${line.name} ${percent(line.rate)}%`),
      cash ? 'received' : 'total',
      'currency',
    ],
    ...details.map((row) => [
      row.invoice,
      row.date,
      row.customer,
      amount(fromCents(row.sales)),
      ...report.taxes.map((line) => amount(fromCents(row.taxes.get(taxKey(line.name, line.rate)) ?? 0))),
      amount(fromCents(row.total)),
      report.currency,
    ]),
  ];
  return {
    filename: `sales-tax-${report.from}-to-${report.to}-${report.basis}.csv`,
    csv: rows.map(csvRow).join(''),
  };
}
