import { type Kysely, sql } from 'kysely';

/**
 * What the customer list shows beside each customer (tags, notes, lifetime value, last completed
 * job), kept current by triggers inside every writer's own transaction (portal, v1, UI, sync's
 * apply, merges), so a page of customers reads one row per customer instead of four correlated
 * aggregates. Device-local (server/sync/tables.ts): every install derives it from its own synced
 * rows and never sends it.
 *
 * Tags and notes are re-aggregated for the one customer a change touches (a handful of rows);
 * lifetime value moves by the difference of what an invoice adds (a customer may have thousands);
 * the last job is a max over the (customer_id, status, completed_at) index.
 *
 * The definitions below are this migration's own copy on purpose: a later change to what the
 * table holds is a new migration, never an edit here.
 */

const tagsOf = (customer: string) =>
  `(SELECT json_group_array(t.tag ORDER BY t.tag) FROM customer_tags t WHERE t.customer_id = ${customer})`;
const notesOf = (customer: string) =>
  `(SELECT json_group_array(json_object('id', n.id, 'text', n.text, 'created_at', n.created_at) ORDER BY n.id DESC)
    FROM customer_notes n WHERE n.customer_id = ${customer})`;
const paidOf = (customer: string) =>
  `(SELECT coalesce(sum(i.amount_paid_cents), 0) FROM invoices i WHERE i.customer_id = ${customer})`;
const lastJobOf = (customer: string) =>
  `(SELECT max(j.completed_at) FROM jobs j WHERE j.customer_id = ${customer} AND j.status = 'completed')`;

const everything = (customer: string) =>
  `INSERT OR REPLACE INTO customer_figures (customer_id, tags_json, notes_json, paid_cents, last_job_at)
    SELECT ${customer}, ${tagsOf(customer)}, ${notesOf(customer)}, ${paidOf(customer)}, ${lastJobOf(customer)};`;

const set = (column: string, value: string, customer: string) =>
  `UPDATE customer_figures SET ${column} = ${value} WHERE customer_id = ${customer};`;

const addPaid = (cents: string, customer: string) =>
  `UPDATE customer_figures SET paid_cents = paid_cents + ${cents} WHERE customer_id = ${customer};`;

const TRIGGERS = [
  `CREATE TRIGGER customer_figures_customer_insert AFTER INSERT ON customers BEGIN ${everything('NEW.id')} END`,
  `CREATE TRIGGER customer_figures_customer_delete AFTER DELETE ON customers
    BEGIN DELETE FROM customer_figures WHERE customer_id = OLD.id; END`,
  `CREATE TRIGGER customer_figures_customer_rekey AFTER UPDATE OF id ON customers WHEN OLD.id IS NOT NEW.id
    BEGIN DELETE FROM customer_figures WHERE customer_id = OLD.id; ${everything('NEW.id')} END`,

  ...(['insert', 'delete'] as const).map((event) => {
    const r = event === 'insert' ? 'NEW' : 'OLD';
    return `CREATE TRIGGER customer_figures_tags_${event} AFTER ${event.toUpperCase()} ON customer_tags
      BEGIN ${set('tags_json', tagsOf(`${r}.customer_id`), `${r}.customer_id`)} END`;
  }),
  `CREATE TRIGGER customer_figures_tags_update AFTER UPDATE ON customer_tags BEGIN
    ${set('tags_json', tagsOf('OLD.customer_id'), 'OLD.customer_id')}
    ${set('tags_json', tagsOf('NEW.customer_id'), 'NEW.customer_id')} END`,

  ...(['insert', 'delete'] as const).map((event) => {
    const r = event === 'insert' ? 'NEW' : 'OLD';
    return `CREATE TRIGGER customer_figures_notes_${event} AFTER ${event.toUpperCase()} ON customer_notes
      BEGIN ${set('notes_json', notesOf(`${r}.customer_id`), `${r}.customer_id`)} END`;
  }),
  `CREATE TRIGGER customer_figures_notes_update AFTER UPDATE ON customer_notes BEGIN
    ${set('notes_json', notesOf('OLD.customer_id'), 'OLD.customer_id')}
    ${set('notes_json', notesOf('NEW.customer_id'), 'NEW.customer_id')} END`,

  `CREATE TRIGGER customer_figures_invoices_insert AFTER INSERT ON invoices WHEN NEW.amount_paid_cents <> 0
    BEGIN ${addPaid('NEW.amount_paid_cents', 'NEW.customer_id')} END`,
  `CREATE TRIGGER customer_figures_invoices_delete AFTER DELETE ON invoices WHEN OLD.amount_paid_cents <> 0
    BEGIN ${addPaid('-OLD.amount_paid_cents', 'OLD.customer_id')} END`,
  `CREATE TRIGGER customer_figures_invoices_update AFTER UPDATE OF customer_id, amount_paid_cents ON invoices
    WHEN OLD.customer_id IS NOT NEW.customer_id OR OLD.amount_paid_cents IS NOT NEW.amount_paid_cents
    BEGIN ${addPaid('-OLD.amount_paid_cents', 'OLD.customer_id')} ${addPaid('NEW.amount_paid_cents', 'NEW.customer_id')} END`,

  `CREATE TRIGGER customer_figures_jobs_insert AFTER INSERT ON jobs WHEN NEW.status = 'completed'
    BEGIN ${set('last_job_at', lastJobOf('NEW.customer_id'), 'NEW.customer_id')} END`,
  `CREATE TRIGGER customer_figures_jobs_delete AFTER DELETE ON jobs WHEN OLD.status = 'completed'
    BEGIN ${set('last_job_at', lastJobOf('OLD.customer_id'), 'OLD.customer_id')} END`,
  `CREATE TRIGGER customer_figures_jobs_update AFTER UPDATE OF customer_id, status, completed_at ON jobs
    WHEN (OLD.status = 'completed' OR NEW.status = 'completed') AND (OLD.customer_id IS NOT NEW.customer_id
      OR OLD.status IS NOT NEW.status OR OLD.completed_at IS NOT NEW.completed_at)
    BEGIN ${set('last_job_at', lastJobOf('OLD.customer_id'), 'OLD.customer_id')}
      ${set('last_job_at', lastJobOf('NEW.customer_id'), 'NEW.customer_id')} END`,
];

export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE customer_figures (
      customer_id TEXT PRIMARY KEY,
      tags_json TEXT NOT NULL DEFAULT '[]',
      notes_json TEXT NOT NULL DEFAULT '[]',
      paid_cents INTEGER NOT NULL DEFAULT 0,
      last_job_at TEXT
    ) WITHOUT ROWID`,
    // Set-based: one pass per figure over its own index, not four lookups per customer.
    `INSERT INTO customer_figures (customer_id) SELECT id FROM customers`,
    `UPDATE customer_figures SET tags_json = t.tags FROM (
      SELECT customer_id, json_group_array(tag ORDER BY tag) AS tags FROM customer_tags GROUP BY customer_id
    ) t WHERE t.customer_id = customer_figures.customer_id`,
    `UPDATE customer_figures SET notes_json = n.notes FROM (
      SELECT customer_id, json_group_array(json_object('id', id, 'text', text, 'created_at', created_at) ORDER BY id DESC) AS notes
      FROM customer_notes GROUP BY customer_id
    ) n WHERE n.customer_id = customer_figures.customer_id`,
    `UPDATE customer_figures SET paid_cents = i.paid FROM (
      SELECT customer_id, sum(amount_paid_cents) AS paid FROM invoices GROUP BY customer_id
    ) i WHERE i.customer_id = customer_figures.customer_id`,
    `UPDATE customer_figures SET last_job_at = j.last FROM (
      SELECT customer_id, max(completed_at) AS last FROM jobs WHERE status = 'completed' GROUP BY customer_id
    ) j WHERE j.customer_id = customer_figures.customer_id`,
    ...TRIGGERS,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
