import { type Kysely, sql } from 'kysely';

/**
 * The customer figures of a customer just inserted or re-keyed (migration 0021) without the
 * ordered aggregates when there is nothing to aggregate. An ordered json_group_array builds a
 * temporary B-tree at every call, even over no rows: for a new customer, which nearly always has
 * no tags or notes yet, that was three quarters of the cost of its INSERT (a hub applying the
 * customers its devices push, an import). A customer whose rows came first (a sync applying a
 * page out of order, a re-key) still gets them aggregated. Same figures as before, exactly.
 *
 * This migration's own copy of the definitions, as in 0021.
 */

const tagsOf = (customer: string) =>
  `CASE WHEN EXISTS (SELECT 1 FROM customer_tags t WHERE t.customer_id = ${customer})
    THEN (SELECT json_group_array(t.tag ORDER BY t.tag) FROM customer_tags t WHERE t.customer_id = ${customer})
    ELSE '[]' END`;
const notesOf = (customer: string) =>
  `CASE WHEN EXISTS (SELECT 1 FROM customer_notes n WHERE n.customer_id = ${customer})
    THEN (SELECT json_group_array(json_object('id', n.id, 'text', n.text, 'created_at', n.created_at) ORDER BY n.id DESC)
      FROM customer_notes n WHERE n.customer_id = ${customer})
    ELSE '[]' END`;
const paidOf = (customer: string) =>
  `(SELECT coalesce(sum(i.amount_paid_cents), 0) FROM invoices i WHERE i.customer_id = ${customer})`;
const lastJobOf = (customer: string) =>
  `(SELECT max(j.completed_at) FROM jobs j WHERE j.customer_id = ${customer} AND j.status = 'completed')`;

const everything = (customer: string) =>
  `INSERT OR REPLACE INTO customer_figures (customer_id, tags_json, notes_json, paid_cents, last_job_at)
    SELECT ${customer}, ${tagsOf(customer)}, ${notesOf(customer)}, ${paidOf(customer)}, ${lastJobOf(customer)};`;

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    'DROP TRIGGER IF EXISTS customer_figures_customer_insert',
    'DROP TRIGGER IF EXISTS customer_figures_customer_rekey',
    `CREATE TRIGGER customer_figures_customer_insert AFTER INSERT ON customers BEGIN ${everything('NEW.id')} END`,
    `CREATE TRIGGER customer_figures_customer_rekey AFTER UPDATE OF id ON customers WHEN OLD.id IS NOT NEW.id
      BEGIN DELETE FROM customer_figures WHERE customer_id = OLD.id; ${everything('NEW.id')} END`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
