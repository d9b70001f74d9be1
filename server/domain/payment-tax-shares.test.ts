import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { divRoundHalfAway } from '../../shared/money';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import { createContext } from '../context';
import { rebuildPaymentTaxShares } from '../db/payment-tax-shares';
import { manualClock } from '../lib/clock';
import type { OpenedDatabase } from '../sync/open';
import { createAccount } from './accounts';
import { createCustomer } from './customers';

/**
 * The trigger-kept tax shares of payments (migration 0029) held to the rule they replace, worked
 * out here afresh in JavaScript with BigInt (each payment carries the difference of its invoice's
 * cumulative share before and after it), after every step of a random sequence of writes to the
 * payments, invoices and taxes they read; and the bulk rebuild a first sync uses to the same.
 */

let dir: string;
let database: OpenedDatabase;
let accountId: string;
let customerId: string;

beforeEach(async () => {
  ({ dir, database } = await openMigratedDatabase('shopdesk-tax-shares-'));
  const ctx = createContext(database.db, manualClock('2026-11-22T15:00:00Z'));
  accountId = (await createAccount(ctx, { businessName: 'Sparkle', plan: 'platform', apiPlan: 'growth' })).id;
  customerId = (await createCustomer(ctx, accountId, { name: 'Ada', email: 'ada@example.com' })).id;
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const shareOf = (whole: number, paid: number, total: number) =>
  Number(divRoundHalfAway(BigInt(whole) * BigInt(paid), BigInt(total)));

interface Payment {
  id: string;
  invoice_id: string;
  amount_cents: number;
  paid_at: string;
}

/** What the table must hold, from the raw rows, in the table's column order. */
function oracle(): unknown[] {
  const { sqlite } = database;
  const invoices = sqlite.prepare('SELECT id, total_cents FROM invoices').all() as Array<{
    id: string;
    total_cents: number;
  }>;
  const payments = sqlite.prepare('SELECT * FROM payments ORDER BY paid_at, id').all() as Payment[];
  const taxes = sqlite.prepare('SELECT * FROM document_taxes ORDER BY position').all() as Array<{
    document_id: string;
    position: number;
    name: string;
    rate: string;
    amount_cents: number;
  }>;
  const rows: Array<Record<string, unknown>> = [];
  for (const invoice of invoices) {
    const total = invoice.total_cents;
    if (total <= 0) continue;
    const charged = taxes.filter((t) => t.document_id === invoice.id);
    let paidSoFar = 0;
    for (const payment of payments.filter((p) => p.invoice_id === invoice.id)) {
      const before = paidSoFar;
      const after = Math.min(total, before + payment.amount_cents);
      paidSoFar = after;
      const shares = charged.map(
        (t) => shareOf(t.amount_cents, after, total) - shareOf(t.amount_cents, before, total),
      );
      const taxPart = shares.reduce((sum, cents) => sum + cents, 0);
      const common = { account_id: accountId, paid_at: payment.paid_at, payment_id: payment.id };
      const sales = after - before - taxPart;
      const moved = after > before ? 1 : 0;
      rows.push({
        ...common,
        position: -1,
        invoice_id: invoice.id,
        name: null,
        rate: null,
        sales_cents: sales,
        tax_cents: taxPart,
        moved,
        untaxed: charged.length === 0 ? 1 : 0,
      });
      charged.forEach((t, i) => {
        rows.push({
          ...common,
          position: t.position,
          invoice_id: invoice.id,
          name: t.name,
          rate: t.rate,
          sales_cents: sales,
          tax_cents: shares[i],
          moved,
          untaxed: 0,
        });
      });
    }
  }
  const id = (r: Record<string, unknown>) => String(r.payment_id);
  return rows.sort(
    (a, b) => (id(a) < id(b) ? -1 : id(a) > id(b) ? 1 : 0) || Number(a.position) - Number(b.position),
  );
}

const kept = () =>
  database.sqlite.prepare('SELECT * FROM payment_tax_shares ORDER BY payment_id, position').all();

function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    // The high bits: the low ones of this generator repeat with a short period.
    return Math.floor((state / 2 ** 31) * n);
  };
}

describe("payments' tax shares", () => {
  it('stay equal to the rule through random writes of payments, invoice totals and taxes', () => {
    const { sqlite } = database;
    const pick = random(29);
    const invoices: string[] = [];
    let payments = 0;
    let created = 0;
    const anyInvoice = () => invoices[pick(invoices.length)] ?? '';
    const day = () => `2026-0${1 + pick(6)}-1${pick(9)}T1${pick(9)}:00:00.000Z`;
    const operations: Array<[string, () => unknown]> = [
      [
        'invoice',
        () => {
          // Few invoices at a time, so each gathers several payments and taxes.
          if (invoices.length >= 4) return;
          const id = `inv_${created++}`;
          invoices.push(id);
          // Some totals are zero: such an invoice's payments carry nothing and are not counted.
          const total = pick(5) * 3_333;
          sqlite
            .prepare(
              `INSERT INTO invoices (id, account_id, number, customer_id, status, currency, issue_date, due_date,
                 subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, created_at, updated_at)
               VALUES (?, ?, ?, ?, 'sent', 'CAD', '2026-01-01', '2026-01-15', ?, 0, ?, 0, 'x', 'x')`,
            )
            .run(id, accountId, `N-${id}`, customerId, total, total);
        },
      ],
      [
        'tax',
        () =>
          sqlite
            .prepare(
              `INSERT OR IGNORE INTO document_taxes (document_id, position, name, rate, amount_cents)
               VALUES (?, ?, ?, ?, ?)`,
            )
            .run(anyInvoice(), pick(3), ['GST', 'PST', 'QST'][pick(3)], '0.05', pick(7) * 137 - 137),
      ],
      [
        'edit tax',
        () =>
          sqlite
            .prepare('UPDATE document_taxes SET amount_cents = amount_cents + 41 WHERE rowid % 3 = ?')
            .run(pick(3)),
      ],
      ['drop tax', () => sqlite.prepare('DELETE FROM document_taxes WHERE rowid % 8 = ?').run(pick(8))],
      [
        'pay',
        () =>
          invoices.length &&
          sqlite
            .prepare(
              `INSERT INTO payments (id, account_id, invoice_id, amount_cents, method, paid_at, created_at)
               VALUES (?, ?, ?, ?, 'cash', ?, 'x')`,
            )
            .run(`pay_${payments++}`, accountId, anyInvoice(), 1 + pick(9_000), day()),
      ],
      [
        're-date payment',
        () => sqlite.prepare('UPDATE payments SET paid_at = ? WHERE rowid % 3 = ?').run(day(), pick(3)),
      ],
      [
        'resize payment',
        () =>
          sqlite
            .prepare('UPDATE payments SET amount_cents = ? WHERE rowid % 4 = ?')
            .run(1 + pick(6_000), pick(4)),
      ],
      [
        'move payment',
        () =>
          invoices.length &&
          sqlite.prepare('UPDATE payments SET invoice_id = ? WHERE rowid % 5 = ?').run(anyInvoice(), pick(5)),
      ],
      ['delete payment', () => sqlite.prepare('DELETE FROM payments WHERE rowid % 9 = ?').run(pick(9))],
      [
        'retotal',
        () =>
          sqlite
            .prepare('UPDATE invoices SET total_cents = ? WHERE id = ?')
            .run(pick(4) * 5_000, anyInvoice()),
      ],
      [
        'delete invoice',
        () => {
          const id = anyInvoice();
          invoices.splice(invoices.indexOf(id), 1);
          sqlite.prepare('DELETE FROM payments WHERE invoice_id = ?').run(id);
          sqlite.prepare('DELETE FROM invoices WHERE id = ?').run(id);
        },
      ],
    ];
    const seen = { taxShares: 0, beyondTotal: 0 };
    for (let step = 0; step < 300; step++) {
      const [name, run] = operations[step < 20 ? step % 5 : pick(operations.length)]!;
      run();
      const rows = kept() as Array<{ position: number; moved: number }>;
      expect(rows, `step ${step}: ${name}`).toEqual(oracle());
      seen.taxShares += rows.filter((r) => r.position >= 0).length;
      seen.beyondTotal += rows.filter((r) => r.moved === 0).length;
    }
    // The history met taxed payments and money received beyond an invoice's total.
    expect(seen.taxShares).toBeGreaterThan(100);
    expect(seen.beyondTotal).toBeGreaterThan(10);

    const before = kept();
    sqlite.prepare('DELETE FROM payment_tax_shares').run();
    rebuildPaymentTaxShares(sqlite, accountId);
    expect(kept()).toEqual(before);
  });

  it('rebuild as the triggers leave them over many reads, large amounts and another business', async () => {
    const { sqlite } = database;
    const pick = random(7);
    const ctx = createContext(database.db, manualClock('2026-11-22T15:00:00Z'));
    const other = (await createAccount(ctx, { businessName: 'Other', plan: 'platform', apiPlan: 'growth' }))
      .id;
    const otherCustomer = (await createCustomer(ctx, other, { name: 'Bo', email: 'bo@example.com' })).id;
    const invoice = sqlite.prepare(
      `INSERT INTO invoices (id, account_id, number, customer_id, status, currency, issue_date, due_date,
         subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, created_at, updated_at)
       VALUES (?, ?, ?, ?, 'sent', 'CAD', '2026-01-01', '2026-01-15', ?, 0, ?, 0, 'x', 'x')`,
    );
    const tax = sqlite.prepare(
      `INSERT INTO document_taxes (document_id, position, name, rate, amount_cents) VALUES (?, ?, 'GST', '0.05', ?)`,
    );
    const payment = sqlite.prepare(
      `INSERT INTO payments (id, account_id, invoice_id, amount_cents, method, paid_at, created_at)
       VALUES (?, ?, ?, ?, 'cash', ?, 'x')`,
    );
    sqlite.transaction(() => {
      for (let n = 0; n < 2_000; n++) {
        const [account, customer] = n % 10 === 0 ? [other, otherCustomer] : [accountId, customerId];
        // Some at ten million dollars with a tax of one million: products of cents beyond 2^53.
        const large = n % 50 === 0;
        const total = large ? 1_000_000_000 : pick(4) * 7_919;
        invoice.run(`inv_${n}`, account, `N-${n}`, customer, total, total);
        const taxes = pick(4);
        for (let position = 0; position < taxes; position++) {
          tax.run(`inv_${n}`, position, large ? 100_000_000 : pick(900) - 100);
        }
        // Few distinct days: many payments share their paid_at and are ordered by id.
        for (let k = 0; k < 1 + pick(4); k++) {
          const amount = large ? 1 + pick(400_000_000) : 1 + pick(9_000);
          payment.run(`pay_${pick(1e9)}_${n}_${k}`, account, `inv_${n}`, amount, `2026-02-0${1 + pick(9)}`);
        }
      }
    })();
    const joined = sqlite
      .prepare(
        `SELECT count(*) AS n FROM payments p JOIN invoices i ON i.id = p.invoice_id
         LEFT JOIN document_taxes t ON t.document_id = p.invoice_id WHERE p.account_id = ?`,
      )
      .get(accountId) as { n: number };
    // More rows than one read of the rebuild takes.
    expect(joined.n).toBeGreaterThan(5_000);
    const before = kept();
    const sums = (account: string) =>
      sqlite
        .prepare(
          'SELECT count(*), sum(tax_cents), sum(sales_cents) FROM payment_tax_shares WHERE account_id = ?',
        )
        .raw()
        .get(account);
    const others = sums(other);
    expect(others).not.toEqual([0, null, null]);
    rebuildPaymentTaxShares(sqlite, accountId);
    expect(kept()).toEqual(before);
    expect(sums(other)).toEqual(others);
  });
});
