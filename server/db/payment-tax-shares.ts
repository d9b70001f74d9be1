import type SQLite from 'better-sqlite3-multiple-ciphers';
import { divRoundHalfAway } from '../../shared/money';

/**
 * Payments' shares of their invoices' sales and taxes (payment_tax_shares, migration 0029) worked
 * out for a whole business at once: for a bulk load (a device's first sync) that writes its rows
 * with the table's triggers set aside, one pass instead of an invoice's shares again at every
 * payment and tax. The result is what the triggers' `sharesSelect` leaves
 * (server/db/payment-tax-shares.test.ts, test/sync/snapshot-join.test.ts).
 *
 * The pass reads the payments in the order they were received (paid_at, id), which is the table's
 * key order too: a payment's share depends only on its invoice's payments received before it,
 * whose running sum is kept per invoice, so the rows are worked out and appended to the key in one
 * read, without the three sorts over every payment and tax row that `sharesSelect` needs at once.
 */

/** The triggers that keep the shares one invoice at a time. */
export const PAYMENT_TAX_SHARES_TRIGGERS = 'payment_tax_shares_';

const COLUMNS = [
  'payment_id',
  'position',
  'account_id',
  'invoice_id',
  'paid_at',
  'name',
  'rate',
  'sales_cents',
  'tax_cents',
  'moved',
  'untaxed',
];
/** Rows per INSERT: one call into SQLite for many rows. */
const INSERT_ROWS = 50;

/** Joined rows read at a time (a payment's rows never split across two reads: see below). */
const PAGE_ROWS = 5000;

/**
 * Payments with their invoice's total, once per tax of the invoice (in position order; once with
 * no tax when it has none), after a payment in (paid_at, id) order. The index on (account_id,
 * paid_at) gives the order; ties of paid_at are put in order among themselves (a small sort).
 */
const PAYMENTS = `SELECT p.id, p.invoice_id, p.paid_at, p.amount_cents, i.rowid AS invoice, i.total_cents,
    t.position, t.name, t.rate, t.amount_cents AS tax_cents
  FROM payments p JOIN invoices i ON i.id = p.invoice_id
  LEFT JOIN document_taxes t ON t.document_id = p.invoice_id
  WHERE p.account_id = :account AND i.total_cents > 0
    AND p.paid_at >= :paidAt AND (p.paid_at > :paidAt OR p.id > :id)
  ORDER BY p.paid_at, p.id, t.position
  LIMIT ${PAGE_ROWS}`;

type PaymentRow = [
  id: string,
  invoiceId: string,
  paidAt: string,
  amount: number,
  invoice: number,
  total: number,
  position: number | null,
  name: string | null,
  rate: string | null,
  taxCents: number | null,
];

export function rebuildPaymentTaxShares(sqlite: SQLite.Database, accountId: string): void {
  sqlite.prepare('DELETE FROM payment_tax_shares WHERE account_id = ?').run(accountId);
  const read = sqlite.prepare(PAYMENTS).raw();
  const writer = new ShareWriter(sqlite);
  /** Per invoice (rowid), the cents received so far. */
  const received = new Map<number, number>();
  let after = { paidAt: '', id: '' };
  for (;;) {
    const rows = read.all({ account: accountId, ...after }) as PaymentRow[];
    let end = rows.length;
    // A full read may stop inside a payment's rows: that payment is read again with the next.
    if (end === PAGE_ROWS) {
      while (end > 0 && rows[end - 1]![0] === rows[PAGE_ROWS - 1]![0]) end--;
      if (end === 0) throw new Error(`A payment with more than ${PAGE_ROWS} taxes`);
    }
    let from = 0;
    while (from < end) {
      let to = from + 1;
      while (to < end && rows[to]![0] === rows[from]![0]) to++;
      writeShares(writer, accountId, received, rows.slice(from, to));
      from = to;
    }
    if (rows.length < PAGE_ROWS) break;
    after = { paidAt: rows[end - 1]![2], id: rows[end - 1]![0] };
  }
  writer.flush();
}

/** One payment's rows: its own (position -1) and one per tax of its invoice. */
function writeShares(
  writer: ShareWriter,
  accountId: string,
  received: Map<number, number>,
  rows: PaymentRow[],
): void {
  const [id, invoiceId, paidAt, amount, invoice, total, position] = rows[0]!;
  const sum = (received.get(invoice) ?? 0) + amount;
  received.set(invoice, sum);
  const before = Math.min(total, sum - amount);
  const after = Math.min(total, sum);
  const moved = after > before ? 1 : 0;
  const taxes = position === null ? [] : rows;
  const parts = taxes.map((row) => share(row[9]!, after, total) - share(row[9]!, before, total));
  const taxPart = parts.reduce((a, b) => a + b, 0);
  const sales = after - before - taxPart;
  const untaxed = taxes.length === 0 ? 1 : 0;
  writer.row(id, -1, accountId, invoiceId, paidAt, null, null, sales, taxPart, moved, untaxed);
  for (let i = 0; i < taxes.length; i++) {
    const [, , , , , , position, name, rate] = taxes[i]!;
    writer.row(id, position, accountId, invoiceId, paidAt, name, rate, sales, parts[i], moved, 0);
  }
}

/** Above this a product of cents may not be exact in a double: it is worked out in BigInt. */
const EXACT = 2 ** 50;

/**
 * The part of `whole` cents that `paid` of `total` (> 0) carries, rounded half away from zero:
 * the migration's `share`, exactly.
 */
function share(whole: number, paid: number, total: number): number {
  const product = whole * paid;
  if (Math.abs(product) >= EXACT || total >= EXACT) {
    return Number(divRoundHalfAway(BigInt(whole) * BigInt(paid), BigInt(total)));
  }
  const numerator = 2 * Math.abs(product) + total;
  const quotient = (numerator - (numerator % (2 * total))) / (2 * total);
  return product < 0 ? 0 - quotient : quotient;
}

/** Appends share rows in the table's key order, INSERT_ROWS to a statement. */
class ShareWriter {
  private readonly many: SQLite.Statement;
  private readonly one: SQLite.Statement;
  private values: unknown[] = [];

  constructor(sqlite: SQLite.Database) {
    const row = `(${COLUMNS.map(() => '?').join(', ')})`;
    const insert = `INSERT INTO payment_tax_shares (${COLUMNS.join(', ')}) VALUES `;
    this.many = sqlite.prepare(insert + Array(INSERT_ROWS).fill(row).join(', '));
    this.one = sqlite.prepare(insert + row);
  }

  row(...values: unknown[]): void {
    this.values.push(...values);
    if (this.values.length === INSERT_ROWS * COLUMNS.length) {
      this.many.run(this.values);
      this.values = [];
    }
  }

  flush(): void {
    for (let at = 0; at < this.values.length; at += COLUMNS.length) {
      this.one.run(this.values.slice(at, at + COLUMNS.length));
    }
    this.values = [];
  }
}
