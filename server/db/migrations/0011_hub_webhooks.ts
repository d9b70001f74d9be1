import { type Kysely, sql } from 'kysely';

/**
 * Hub-owned webhook deliveries (server/sync/hub/webhook-deliveries.ts): the secrets of endpoints
 * handed to the hub and their deliveries, kept by the hub's storage like the other hub_ tables
 * (the same tables as the hosted hub's PostgreSQL, pg-schema.ts). Device-local, never synced.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of HUB_WEBHOOK_TABLES) await sql.raw(statement).execute(db);
}

/** Shared with pg-schema.ts: the statements are plain SQL both engines run. */
export const HUB_WEBHOOK_TABLES = [
  `CREATE TABLE hub_webhook_endpoints (
    account_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    secret TEXT NOT NULL,
    previous_secret TEXT,
    previous_secret_expires_at TEXT,
    queued_through BIGINT NOT NULL DEFAULT 0,
    updated_at TEXT NOT NULL,
    PRIMARY KEY (account_id, endpoint_id)
  )`,
  `CREATE TABLE hub_webhook_deliveries (
    id TEXT PRIMARY KEY,
    account_id TEXT NOT NULL,
    endpoint_id TEXT NOT NULL,
    event_id TEXT NOT NULL,
    event_type TEXT NOT NULL,
    status TEXT NOT NULL,
    attempts INTEGER NOT NULL DEFAULT 0,
    max_attempts INTEGER NOT NULL,
    next_attempt_at TEXT,
    last_response_code INTEGER,
    last_error TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL,
    UNIQUE (endpoint_id, event_id)
  )`,
  `CREATE INDEX hub_webhook_deliveries_due ON hub_webhook_deliveries (next_attempt_at)
    WHERE status IN ('pending', 'sending')`,
  'CREATE INDEX hub_webhook_deliveries_endpoint ON hub_webhook_deliveries (account_id, endpoint_id)',
];
