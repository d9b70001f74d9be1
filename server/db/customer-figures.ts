import type SQLite from 'better-sqlite3-multiple-ciphers';

/**
 * The customer list's figures (customer_figures, migration 0021) worked out for a whole business
 * at once: for a bulk load (a device's first sync) that writes its rows with the table's triggers
 * set aside, one pass per figure over its own index instead of a trigger per row. The result is
 * what the triggers would have left (test/sync/snapshot-join.test.ts holds it to that).
 */

/** The triggers that keep the figures one row at a time. */
export const CUSTOMER_FIGURES_TRIGGERS = 'customer_figures_';

const REBUILD = [
  `DELETE FROM customer_figures WHERE customer_id IN (SELECT id FROM customers WHERE account_id = :account)`,
  `INSERT INTO customer_figures (customer_id) SELECT id FROM customers WHERE account_id = :account`,
  `UPDATE customer_figures SET tags_json = t.tags FROM (
    SELECT t.customer_id, json_group_array(t.tag ORDER BY t.tag) AS tags
    FROM customers c JOIN customer_tags t ON t.customer_id = c.id WHERE c.account_id = :account GROUP BY t.customer_id
  ) t WHERE t.customer_id = customer_figures.customer_id`,
  `UPDATE customer_figures SET notes_json = n.notes FROM (
    SELECT n.customer_id,
      json_group_array(json_object('id', n.id, 'text', n.text, 'created_at', n.created_at) ORDER BY n.id DESC) AS notes
    FROM customers c JOIN customer_notes n ON n.customer_id = c.id WHERE c.account_id = :account GROUP BY n.customer_id
  ) n WHERE n.customer_id = customer_figures.customer_id`,
  `UPDATE customer_figures SET paid_cents = i.paid FROM (
    SELECT customer_id, sum(amount_paid_cents) AS paid FROM invoices WHERE account_id = :account GROUP BY customer_id
  ) i WHERE i.customer_id = customer_figures.customer_id`,
  `UPDATE customer_figures SET last_job_at = j.last FROM (
    SELECT customer_id, max(completed_at) AS last FROM jobs
    WHERE account_id = :account AND status = 'completed' GROUP BY customer_id
  ) j WHERE j.customer_id = customer_figures.customer_id`,
];

/** Replaces the figures of every customer of the account with what its rows say now. */
export function rebuildCustomerFigures(sqlite: SQLite.Database, accountId: string): void {
  for (const statement of REBUILD) sqlite.prepare(statement).run({ account: accountId });
}
