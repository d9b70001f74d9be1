import { type Kysely, sql } from 'kysely';

/**
 * Each payment's share of its invoice's sales and of each tax (the cash-basis sales-tax report,
 * docs/reminders-and-tax.md), kept current by triggers inside every writer's own transaction, so
 * the report reads one range of this table's key instead of every payment, invoice and tax row of
 * the invoices paid in the period. Device-local (server/sync/tables.ts): every install derives it
 * from its own synced rows and never sends it.
 *
 * A payment's share depends on the payments of its invoice received before it, on the invoice's
 * total and on its taxes: any change to one of those works out the whole invoice's shares again
 * (a handful of rows). Rows: one per payment (position -1: its sales part and its whole tax part)
 * and one per tax the invoice charges (position: the tax's; its tax part, beside the same sales part).
 *
 * `moved` is 0 for money received beyond the invoice's total, which carries nothing (two devices
 * recording one payment); such a payment still counts as received.
 */

/**
 * The part of `whole` cents that `paid` of `total` carries, rounded half away from zero; the same as
 * shareOf in server/domain/sales-tax.ts while whole × paid stays within 2^62 (a tax of $1M on an
 * invoice of $10M).
 */
const share = (whole: string, paid: string, total: string) =>
  `(CASE WHEN ${whole} * ${paid} >= 0 THEN (2 * ${whole} * ${paid} + ${total}) / (2 * ${total})
    ELSE -((-2 * ${whole} * ${paid} + ${total}) / (2 * ${total})) END)`;

/**
 * The share rows of the payments `where` picks (a condition on `p`, payments, and `i`, their
 * invoices), each invoice's payments in the order they were received. No CTE: triggers allow none.
 */
export function sharesSelect(where: string): string {
  const paid = `SELECT p.id, p.account_id, p.invoice_id, p.paid_at, i.total_cents AS total,
      min(i.total_cents, sum(p.amount_cents) OVER w - p.amount_cents) AS before,
      min(i.total_cents, sum(p.amount_cents) OVER w) AS after
    FROM payments p JOIN invoices i ON i.id = p.invoice_id
    WHERE ${where} AND i.total_cents > 0
    WINDOW w AS (PARTITION BY p.invoice_id ORDER BY p.paid_at, p.id ROWS UNBOUNDED PRECEDING)`;
  const taxed = `SELECT paid.*, t.position, t.name, t.rate,
      ${share('t.amount_cents', 'paid.after', 'paid.total')} - ${share('t.amount_cents', 'paid.before', 'paid.total')} AS tax
    FROM (${paid}) paid LEFT JOIN document_taxes t ON t.document_id = paid.invoice_id`;
  const parts = `SELECT taxed.*, coalesce(sum(taxed.tax) OVER (PARTITION BY taxed.id), 0) AS tax_part,
      count(taxed.position) OVER (PARTITION BY taxed.id) AS taxes,
      row_number() OVER (PARTITION BY taxed.id) AS nth
    FROM (${taxed}) taxed`;
  // Each payment's row (k = 0) and its tax rows (k = 1) from one evaluation of the above.
  return `SELECT id, CASE k WHEN 0 THEN -1 ELSE position END, account_id, invoice_id, paid_at,
      CASE k WHEN 0 THEN NULL ELSE name END, CASE k WHEN 0 THEN NULL ELSE rate END,
      after - before - tax_part, CASE k WHEN 0 THEN tax_part ELSE tax END, after > before,
      CASE k WHEN 0 THEN taxes = 0 ELSE 0 END
    FROM (${parts}) CROSS JOIN (SELECT 0 AS k UNION ALL SELECT 1)
    WHERE (k = 0 AND nth = 1) OR (k = 1 AND position IS NOT NULL)`;
}

const COLUMNS =
  'payment_id, position, account_id, invoice_id, paid_at, name, rate, sales_cents, tax_cents, moved, untaxed';

const redo = (invoice: string) =>
  `DELETE FROM payment_tax_shares WHERE invoice_id = ${invoice};
   INSERT INTO payment_tax_shares (${COLUMNS}) ${sharesSelect(`p.invoice_id = ${invoice}`)};`;

const paidFor = (invoice: string) => `EXISTS (SELECT 1 FROM payments WHERE invoice_id = ${invoice})`;

const TRIGGERS = [
  `CREATE TRIGGER payment_tax_shares_payments_insert AFTER INSERT ON payments BEGIN ${redo('NEW.invoice_id')} END`,
  `CREATE TRIGGER payment_tax_shares_payments_delete AFTER DELETE ON payments BEGIN ${redo('OLD.invoice_id')} END`,
  `CREATE TRIGGER payment_tax_shares_payments_update
    AFTER UPDATE OF id, account_id, invoice_id, amount_cents, paid_at ON payments
    BEGIN ${redo('OLD.invoice_id')} ${redo('NEW.invoice_id')} END`,
  // A paged pull may bring an invoice's payments before the invoice.
  `CREATE TRIGGER payment_tax_shares_invoices_insert AFTER INSERT ON invoices WHEN ${paidFor('NEW.id')}
    BEGIN ${redo('NEW.id')} END`,
  `CREATE TRIGGER payment_tax_shares_invoices_delete AFTER DELETE ON invoices
    BEGIN DELETE FROM payment_tax_shares WHERE invoice_id = OLD.id; END`,
  `CREATE TRIGGER payment_tax_shares_invoices_update AFTER UPDATE OF id, total_cents ON invoices
    WHEN (OLD.id IS NOT NEW.id OR OLD.total_cents IS NOT NEW.total_cents) AND (${paidFor('OLD.id')} OR ${paidFor('NEW.id')})
    BEGIN ${redo('OLD.id')} ${redo('NEW.id')} END`,
  ...(['insert', 'delete'] as const).map((event) => {
    const r = event === 'insert' ? 'NEW' : 'OLD';
    return `CREATE TRIGGER payment_tax_shares_taxes_${event} AFTER ${event.toUpperCase()} ON document_taxes
      WHEN ${paidFor(`${r}.document_id`)} BEGIN ${redo(`${r}.document_id`)} END`;
  }),
  `CREATE TRIGGER payment_tax_shares_taxes_update AFTER UPDATE ON document_taxes
    WHEN ${paidFor('OLD.document_id')} OR ${paidFor('NEW.document_id')}
    BEGIN ${redo('OLD.document_id')} ${redo('NEW.document_id')} END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE payment_tax_shares (
      account_id TEXT NOT NULL,
      paid_at TEXT NOT NULL,
      payment_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      invoice_id TEXT NOT NULL,
      name TEXT,
      rate TEXT,
      sales_cents INTEGER NOT NULL,
      tax_cents INTEGER NOT NULL,
      moved INTEGER NOT NULL,
      untaxed INTEGER NOT NULL,
      PRIMARY KEY (account_id, paid_at, payment_id, position)
    ) WITHOUT ROWID`,
    'CREATE INDEX payment_tax_shares_invoice ON payment_tax_shares(invoice_id)',
    // In the key's order: appending to the B-tree rather than inserting all over it.
    `INSERT INTO payment_tax_shares (${COLUMNS}) ${sharesSelect('1')} ORDER BY 3, 5, 1, 2`,
    ...TRIGGERS,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
