import type SQLite from 'better-sqlite3-multiple-ciphers';
import { sharesSelect } from './migrations/0029_payment_tax_shares';

/**
 * Payments' shares of their invoices' sales and taxes (payment_tax_shares, migration 0029) worked
 * out for a whole business at once: for a bulk load (a device's first sync) that writes its rows
 * with the table's triggers set aside, one pass instead of an invoice's shares again at every
 * payment and tax. The result is what the triggers would have left (test/sync/snapshot-join.test.ts).
 */

/** The triggers that keep the shares one invoice at a time. */
export const PAYMENT_TAX_SHARES_TRIGGERS = 'payment_tax_shares_';

export function rebuildPaymentTaxShares(sqlite: SQLite.Database, accountId: string): void {
  sqlite.prepare('DELETE FROM payment_tax_shares WHERE account_id = ?').run(accountId);
  sqlite
    .prepare(
      `INSERT INTO payment_tax_shares (payment_id, position, account_id, invoice_id, paid_at, name, rate,
        sales_cents, tax_cents, moved, untaxed) ${sharesSelect('p.account_id = :account')} ORDER BY 3, 5, 1, 2`,
    )
    .run({ account: accountId });
}
