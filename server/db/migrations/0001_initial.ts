import { type Kysely, sql } from 'kysely';

// Timestamps are ISO 8601 UTC text (sortable); dates are YYYY-MM-DD text; money is integer cents;
// decimal inputs that are not money (quantities, unit prices, tax rates) are kept as exact decimal text.
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE accounts (
      id TEXT PRIMARY KEY,
      plan TEXT NOT NULL CHECK (plan IN ('basic','platform')),
      api_plan TEXT NOT NULL CHECK (api_plan IN ('none','lite','essential','business_suite','growth')),
      config TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE TABLE counters (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      value INTEGER NOT NULL,
      PRIMARY KEY (account_id, name)
    )`,
    `CREATE TABLE api_keys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('portal','v1','feed')),
      mode TEXT NOT NULL CHECK (mode IN ('live','test')),
      scopes TEXT NOT NULL,
      name TEXT,
      last4 TEXT NOT NULL,
      created_at TEXT NOT NULL,
      revoked_at TEXT,
      last_used_at TEXT
    )`,
    `CREATE INDEX api_keys_account ON api_keys(account_id, kind)`,
    // One row per secret: a rotated key keeps its old secret here until expires_at.
    `CREATE TABLE api_key_secrets (
      hash TEXT PRIMARY KEY,
      key_id TEXT NOT NULL REFERENCES api_keys(id),
      created_at TEXT NOT NULL,
      expires_at TEXT
    )`,
    `CREATE INDEX api_key_secrets_key ON api_key_secrets(key_id)`,
    `CREATE TABLE sign_in_links (
      hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT
    )`,
    `CREATE TABLE sessions (
      hash TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL
    )`,
    `CREATE TABLE customers (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      email TEXT NOT NULL,
      email_lower TEXT NOT NULL,
      phone TEXT,
      address TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT,
      UNIQUE (account_id, email_lower)
    )`,
    `CREATE INDEX customers_account_id ON customers(account_id, id)`,
    `CREATE INDEX customers_account_updated ON customers(account_id, updated_at)`,
    `CREATE TABLE customer_tags (
      customer_id TEXT NOT NULL REFERENCES customers(id),
      tag TEXT NOT NULL,
      PRIMARY KEY (customer_id, tag)
    )`,
    `CREATE INDEX customer_tags_tag ON customer_tags(tag, customer_id)`,
    `CREATE TABLE customer_notes (
      id TEXT PRIMARY KEY,
      customer_id TEXT NOT NULL REFERENCES customers(id),
      text TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX customer_notes_customer ON customer_notes(customer_id, id)`,
    `CREATE TABLE team_members (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      created_at TEXT NOT NULL,
      UNIQUE (account_id, name)
    )`,
    `CREATE TABLE jobs (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      number TEXT NOT NULL,
      customer_id TEXT NOT NULL REFERENCES customers(id),
      title TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('unscheduled','scheduled','in_progress','completed','cancelled')),
      scheduled_start TEXT,
      scheduled_end TEXT,
      address TEXT,
      price_cents INTEGER,
      notes TEXT,
      quote_id TEXT,
      booking_id TEXT,
      started_at TEXT,
      completed_at TEXT,
      cancelled_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (account_id, number)
    )`,
    `CREATE INDEX jobs_account_id ON jobs(account_id, id)`,
    `CREATE INDEX jobs_account_start ON jobs(account_id, scheduled_start)`,
    `CREATE INDEX jobs_customer ON jobs(customer_id, status)`,
    `CREATE INDEX jobs_account_updated ON jobs(account_id, updated_at)`,
    `CREATE INDEX jobs_account_completed ON jobs(account_id, completed_at)`,
    `CREATE TABLE job_assignees (
      job_id TEXT NOT NULL REFERENCES jobs(id),
      member_id TEXT NOT NULL REFERENCES team_members(id),
      PRIMARY KEY (job_id, member_id)
    )`,
    `CREATE INDEX job_assignees_member ON job_assignees(member_id)`,
    `CREATE TABLE bookings (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      service TEXT NOT NULL,
      start TEXT NOT NULL,
      end TEXT NOT NULL,
      notes TEXT,
      source TEXT,
      status TEXT NOT NULL CHECK (status IN ('pending','confirmed','completed','cancelled','no_show')),
      job_id TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX bookings_account_id ON bookings(account_id, id)`,
    `CREATE INDEX bookings_account_start ON bookings(account_id, start)`,
    `CREATE INDEX bookings_account_updated ON bookings(account_id, updated_at)`,
    `CREATE TABLE quotes (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      number TEXT NOT NULL,
      customer_id TEXT NOT NULL REFERENCES customers(id),
      status TEXT NOT NULL CHECK (status IN ('draft','sent','accepted','declined','converted')),
      currency TEXT NOT NULL,
      issue_date TEXT NOT NULL,
      valid_until TEXT NOT NULL,
      subtotal_cents INTEGER NOT NULL,
      tax_total_cents INTEGER NOT NULL,
      total_cents INTEGER NOT NULL,
      notes TEXT,
      sent_at TEXT,
      accepted_at TEXT,
      declined_at TEXT,
      converted_at TEXT,
      job_id TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (account_id, number)
    )`,
    `CREATE INDEX quotes_account_id ON quotes(account_id, id)`,
    `CREATE INDEX quotes_customer ON quotes(customer_id)`,
    `CREATE INDEX quotes_account_updated ON quotes(account_id, updated_at)`,
    `CREATE TABLE invoices (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      number TEXT NOT NULL,
      customer_id TEXT NOT NULL REFERENCES customers(id),
      status TEXT NOT NULL CHECK (status IN ('draft','sent','partially_paid','paid','void')),
      currency TEXT NOT NULL,
      issue_date TEXT NOT NULL,
      due_date TEXT NOT NULL,
      subtotal_cents INTEGER NOT NULL,
      tax_total_cents INTEGER NOT NULL,
      total_cents INTEGER NOT NULL,
      amount_paid_cents INTEGER NOT NULL DEFAULT 0,
      notes TEXT,
      quote_id TEXT,
      job_id TEXT,
      sent_at TEXT,
      paid_at TEXT,
      voided_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      UNIQUE (account_id, number)
    )`,
    `CREATE INDEX invoices_account_id ON invoices(account_id, id)`,
    `CREATE INDEX invoices_account_status ON invoices(account_id, status, id)`,
    `CREATE INDEX invoices_customer ON invoices(customer_id)`,
    `CREATE INDEX invoices_account_issue ON invoices(account_id, issue_date)`,
    `CREATE INDEX invoices_account_updated ON invoices(account_id, updated_at)`,
    // Lines and taxes of quotes and invoices; document_id is a quo_ or inv_ id.
    `CREATE TABLE document_lines (
      document_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      description TEXT NOT NULL,
      quantity TEXT NOT NULL,
      unit_price TEXT NOT NULL,
      amount_cents INTEGER NOT NULL,
      PRIMARY KEY (document_id, position)
    )`,
    `CREATE TABLE document_taxes (
      document_id TEXT NOT NULL,
      position INTEGER NOT NULL,
      name TEXT NOT NULL,
      rate TEXT NOT NULL,
      amount_cents INTEGER NOT NULL,
      PRIMARY KEY (document_id, position)
    )`,
    `CREATE TABLE payments (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      invoice_id TEXT NOT NULL REFERENCES invoices(id),
      amount_cents INTEGER NOT NULL CHECK (amount_cents > 0),
      method TEXT,
      paid_at TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX payments_invoice ON payments(invoice_id)`,
    `CREATE INDEX payments_account_paid ON payments(account_id, paid_at)`,
    `CREATE TABLE reviews (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      customer_id TEXT REFERENCES customers(id),
      job_id TEXT REFERENCES jobs(id),
      rating INTEGER NOT NULL CHECK (rating BETWEEN 1 AND 5),
      comment TEXT,
      source TEXT,
      received_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX reviews_account_id ON reviews(account_id, id)`,
    `CREATE INDEX reviews_account_received ON reviews(account_id, received_at)`,
    // The mail outbox: invoice and quote sends, win-back messages. Delivery is a worker's job.
    `CREATE TABLE mail_messages (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL CHECK (kind IN ('invoice','quote','winback')),
      customer_id TEXT REFERENCES customers(id),
      document_id TEXT,
      to_address TEXT NOT NULL,
      subject TEXT NOT NULL,
      body TEXT NOT NULL,
      offer TEXT,
      status TEXT NOT NULL CHECK (status IN ('queued','sending','sent','failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      next_attempt_at TEXT,
      last_error TEXT,
      created_at TEXT NOT NULL,
      sent_at TEXT
    )`,
    `CREATE INDEX mail_messages_account ON mail_messages(account_id, id)`,
    `CREATE INDEX mail_messages_due ON mail_messages(status, next_attempt_at)`,
    // The event outbox: written in the same transaction as the change that raised it.
    `CREATE TABLE events (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      type TEXT NOT NULL,
      payload TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    `CREATE INDEX events_account ON events(account_id, id)`,
    `CREATE TABLE idempotency_keys (
      scope TEXT NOT NULL,
      key TEXT NOT NULL,
      fingerprint TEXT NOT NULL,
      status_code INTEGER,
      response TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (scope, key)
    )`,
    `CREATE TABLE rate_limit_windows (
      bucket TEXT PRIMARY KEY,
      window_start INTEGER NOT NULL,
      count INTEGER NOT NULL
    )`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
