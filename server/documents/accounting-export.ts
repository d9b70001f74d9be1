import { divRoundHalfAway } from '../../shared/money';
import type { AccountingExportQuery } from '../../shared/schemas/accounting-export';
import { SALES_TAX_MAX_DAYS } from '../../shared/schemas/sales-tax';
import { dateInZone } from '../../shared/time-zone';
import type { AppContext } from '../context';
import { getAccount } from '../domain/accounts';
import { ISSUED_STATUSES } from '../domain/invoice-status';
import { checkRange, period } from '../domain/overview/periods';
import { csvField } from '../lib/csv';
import { type ExportedInvoiceLine, type ExportedPayment, FORMATS } from './accounting-formats';

/**
 * Invoices and payments of a period for the accountant (docs/import-export.md): the import files of
 * QuickBooks Online and Xero, or a plain CSV. Invoices are the ones the sales-tax report counts on
 * accrual (issued in the period: sent, partly paid or paid; never drafts or void ones); payments the
 * ones it counts on cash. Each invoice's tax is spread over its lines so that the lines add up to
 * the invoice's tax to the cent, and the file to the report.
 */

/**
 * Each line's share of `tax`, cumulatively: line i carries round(tax × (a1+…+ai) / subtotal) less
 * what the lines before it carry, so the shares add up to `tax` exactly whatever the rounding.
 */
export function spreadTax(amounts: number[], tax: number): number[] {
  const subtotal = amounts.reduce((sum, a) => sum + a, 0);
  if (subtotal === 0) return amounts.map((_, i) => (i === 0 ? tax : 0));
  let cumulative = 0;
  let carried = 0;
  return amounts.map((amount) => {
    cumulative += amount;
    const upTo = Number(divRoundHalfAway(BigInt(tax) * BigInt(cumulative), BigInt(subtotal)));
    const share = upTo - carried;
    carried = upTo;
    return share;
  });
}

function byDocument<T extends { document_id: string }>(rows: T[]): Map<string, T[]> {
  const map = new Map<string, T[]>();
  for (const row of rows) {
    const list = map.get(row.document_id);
    if (list) list.push(row);
    else map.set(row.document_id, [row]);
  }
  return map;
}

async function invoiceLines(
  ctx: AppContext,
  accountId: string,
  from: string,
  to: string,
): Promise<ExportedInvoiceLine[]> {
  const issued = ctx.db
    .selectFrom('invoices as i')
    .where('i.account_id', '=', accountId)
    .where('i.issue_date', '>=', from)
    .where('i.issue_date', '<=', to)
    .where('i.status', 'in', ISSUED_STATUSES);
  const invoices = await issued
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select([
      'i.id',
      'i.number',
      'i.issue_date',
      'i.due_date',
      'i.currency',
      'i.status',
      'i.notes',
      'i.tax_total_cents',
      'c.name',
      'c.email',
      'c.address',
    ])
    .orderBy('i.issue_date')
    .orderBy('i.number')
    .execute();
  const ids = issued.select('i.id');
  const lines = await ctx.db
    .selectFrom('document_lines')
    .selectAll()
    .where('document_id', 'in', ids)
    .orderBy('document_id')
    .orderBy('position')
    .execute();
  const taxes = await ctx.db
    .selectFrom('document_taxes')
    .selectAll()
    .where('document_id', 'in', ids)
    .orderBy('document_id')
    .orderBy('position')
    .execute();
  const linesOf = byDocument(lines);
  const taxesOf = byDocument(taxes);
  return invoices.flatMap((invoice) => {
    const own = linesOf.get(invoice.id) ?? [];
    const charged = taxesOf.get(invoice.id) ?? [];
    const taxCents = charged.reduce((sum, t) => sum + t.amount_cents, 0);
    const shares = spreadTax(
      own.map((l) => l.amount_cents),
      taxCents,
    );
    const taxName = charged.map((t) => `${t.name} ${Number((Number(t.rate) * 100).toFixed(4))}%`).join(' + ');
    return own.map((line, index) => ({
      invoice: invoice.number,
      status: invoice.status,
      issueDate: invoice.issue_date,
      dueDate: invoice.due_date,
      currency: invoice.currency,
      memo: invoice.notes,
      customer: invoice.name,
      email: invoice.email,
      address: invoice.address,
      line: index + 1,
      description: line.description,
      quantity: line.quantity,
      unitPrice: line.unit_price,
      amountCents: line.amount_cents,
      taxCents: shares[index]!,
      taxName,
    }));
  });
}

async function payments(
  ctx: AppContext,
  accountId: string,
  range: { start: string; end: string },
  timeZone: string,
): Promise<ExportedPayment[]> {
  const rows = await ctx.db
    .selectFrom('payments as p')
    .innerJoin('invoices as i', 'i.id', 'p.invoice_id')
    .innerJoin('customers as c', 'c.id', 'i.customer_id')
    .select([
      'p.id',
      'p.amount_cents',
      'p.method',
      'p.paid_at',
      'i.number',
      'i.currency',
      'c.name',
      'c.email',
    ])
    .where('p.account_id', '=', accountId)
    .where('p.paid_at', '>=', range.start)
    .where('p.paid_at', '<', range.end)
    .orderBy('p.paid_at')
    .orderBy('p.id')
    .execute();
  return rows.map((p) => ({
    id: p.id,
    invoice: p.number,
    customer: p.name,
    email: p.email,
    paidOn: dateInZone(new Date(p.paid_at), timeZone),
    method: p.method,
    amountCents: p.amount_cents,
    currency: p.currency,
  }));
}

export interface AccountingFile {
  filename: string;
  csv: string;
  /** What the file adds up to, in cents: lines before tax and tax (invoices), or money received. */
  totals: { amount: number; tax: number; rows: number };
}

export async function accountingExport(
  ctx: AppContext,
  accountId: string,
  query: AccountingExportQuery,
): Promise<AccountingFile> {
  checkRange(query.from, query.to, SALES_TAX_MAX_DAYS);
  const { config } = await getAccount(ctx.db, accountId);
  const format = FORMATS[query.format];
  const dates = query.date_format ?? format.dateFormat;
  const options = { dateFormat: dates, accountCode: query.account_code };
  let table: unknown[][];
  let totals: AccountingFile['totals'];
  if (query.records === 'invoices') {
    const lines = await invoiceLines(ctx, accountId, query.from, query.to);
    table = [format.invoiceHeaders, ...lines.map((line) => format.invoiceRow(line, options))];
    totals = {
      amount: lines.reduce((sum, l) => sum + l.amountCents, 0),
      tax: lines.reduce((sum, l) => sum + l.taxCents, 0),
      rows: lines.length,
    };
  } else {
    const received = await payments(
      ctx,
      accountId,
      period(query.from, query.to, config.timezone),
      config.timezone,
    );
    table = [format.paymentHeaders, ...received.map((payment) => format.paymentRow(payment, options))];
    totals = { amount: received.reduce((sum, p) => sum + p.amountCents, 0), tax: 0, rows: received.length };
  }
  return {
    filename: `${query.format}-${query.records}-${query.from}-to-${query.to}.csv`,
    csv: table.map((row) => `${row.map(csvField).join(',')}\r\n`).join(''),
    totals,
  };
}
