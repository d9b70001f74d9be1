import { type Kysely, sql } from 'kysely';

/**
 * Covering indexes for the overview read models (dashboard, report, analytics, benchmark) and
 * customer history: each aggregate reads only index pages, never the wide invoice or payment
 * rows, so the figures stay fast on accounts with hundreds of thousands of invoices.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    'CREATE INDEX payments_account_paid_cover ON payments(account_id, paid_at, amount_cents, method, invoice_id)',
    'CREATE INDEX invoices_account_issue_cover ON invoices(account_id, issue_date, status, total_cents)',
    'CREATE INDEX invoices_account_open ON invoices(account_id, status, due_date, total_cents, amount_paid_cents)',
    'CREATE INDEX invoices_account_paid_at ON invoices(account_id, paid_at, status, issue_date)',
    'CREATE INDEX customers_account_created ON customers(account_id, created_at)',
    'CREATE INDEX jobs_account_status_completed ON jobs(account_id, status, completed_at, customer_id)',
    'CREATE INDEX jobs_customer_completed ON jobs(customer_id, status, completed_at)',
    'CREATE INDEX quotes_account_status ON quotes(account_id, status, valid_until, total_cents)',
    'CREATE INDEX reviews_customer ON reviews(customer_id, received_at)',
    'CREATE INDEX mail_messages_customer ON mail_messages(customer_id, id)',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
