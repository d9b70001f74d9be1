import { type Kysely, sql } from 'kysely';

/**
 * Webhook endpoints, their deliveries (one per event and endpoint, the outbound queue) and every
 * attempt of each delivery (the history the API shows). A delivery being sent holds a lease: its
 * status is 'sending' and next_attempt_at is when the claim lapses, so a claim left behind by a
 * crash is taken back once that time has passed.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE webhook_endpoints (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      interface TEXT NOT NULL CHECK (interface IN ('portal','v1')),
      url TEXT NOT NULL,
      description TEXT,
      events TEXT NOT NULL,
      enabled INTEGER NOT NULL CHECK (enabled IN (0,1)),
      disabled_reason TEXT CHECK (disabled_reason IN ('manual','consecutive_failures')),
      disabled_at TEXT,
      consecutive_failures INTEGER NOT NULL DEFAULT 0,
      secret TEXT NOT NULL,
      previous_secret TEXT,
      previous_secret_expires_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX webhook_endpoints_account ON webhook_endpoints(account_id, interface, id)`,
    `CREATE TABLE webhook_deliveries (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      endpoint_id TEXT NOT NULL REFERENCES webhook_endpoints(id),
      event_id TEXT NOT NULL REFERENCES events(id),
      event_type TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('pending','sending','succeeded','failed')),
      attempts INTEGER NOT NULL DEFAULT 0,
      max_attempts INTEGER NOT NULL,
      next_attempt_at TEXT,
      last_response_code INTEGER,
      last_error TEXT,
      redelivery_of TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    `CREATE INDEX webhook_deliveries_due ON webhook_deliveries(status, next_attempt_at)`,
    `CREATE INDEX webhook_deliveries_endpoint ON webhook_deliveries(endpoint_id, id)`,
    `CREATE INDEX webhook_deliveries_event ON webhook_deliveries(event_id)`,
    `CREATE TABLE webhook_attempts (
      id TEXT PRIMARY KEY,
      delivery_id TEXT NOT NULL REFERENCES webhook_deliveries(id),
      attempt INTEGER NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('succeeded','failed')),
      response_code INTEGER,
      response_body TEXT,
      error TEXT,
      duration_ms INTEGER NOT NULL,
      attempted_at TEXT NOT NULL,
      next_attempt_at TEXT
    )`,
    `CREATE INDEX webhook_attempts_delivery ON webhook_attempts(delivery_id, attempt)`,
    `CREATE INDEX events_account_type ON events(account_id, type, id)`,
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
