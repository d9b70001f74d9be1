import type { Pool } from 'pg';
import { HUB_WEBHOOK_TABLES } from '../../db/migrations/0011_hub_webhooks';

/**
 * The hosted hub's tables in PostgreSQL: the same as the embedded hub's (migration 0005), so both
 * storages hold one model. Values, clocks and timestamps stay text: clocks and ISO times compare
 * as strings, and a row's JSON comes back exactly as it was merged. Migrations only add; each runs
 * once, recorded in hub_schema_migrations.
 */
const MIGRATIONS: string[][] = [
  [
    `CREATE TABLE hub_businesses (
      account_id text PRIMARY KEY,
      last_seq bigint NOT NULL DEFAULT 0,
      created_at text NOT NULL
    )`,
    `CREATE TABLE hub_rows (
      account_id text NOT NULL,
      tbl text NOT NULL,
      pk text NOT NULL,
      seq bigint NOT NULL,
      vals text NOT NULL,
      clocks text NOT NULL,
      natural_key text,
      PRIMARY KEY (account_id, tbl, pk)
    )`,
    'CREATE UNIQUE INDEX hub_rows_seq ON hub_rows (account_id, seq)',
    'CREATE INDEX hub_rows_natural_key ON hub_rows (account_id, tbl, natural_key) WHERE natural_key IS NOT NULL',
    `CREATE TABLE hub_aliases (
      account_id text NOT NULL,
      tbl text NOT NULL,
      from_id text NOT NULL,
      to_id text NOT NULL,
      PRIMARY KEY (account_id, tbl, from_id)
    )`,
    'CREATE INDEX hub_aliases_to ON hub_aliases (account_id, tbl, to_id)',
    `CREATE TABLE hub_devices (
      id text PRIMARY KEY,
      account_id text NOT NULL,
      name text NOT NULL,
      code text NOT NULL,
      credential_hash text NOT NULL UNIQUE,
      last_local_seq bigint NOT NULL DEFAULT 0,
      created_at text NOT NULL,
      last_seen_at text,
      revoked_at text,
      UNIQUE (account_id, code)
    )`,
    `CREATE TABLE hub_pairing_codes (
      code_hash text PRIMARY KEY,
      account_id text NOT NULL,
      name text,
      created_at text NOT NULL,
      expires_at text NOT NULL,
      used_at text
    )`,
    `CREATE TABLE hub_number_series (
      account_id text NOT NULL,
      series text NOT NULL,
      next_value bigint NOT NULL,
      PRIMARY KEY (account_id, series)
    )`,
    `CREATE TABLE hub_number_leases (
      account_id text NOT NULL,
      device_id text NOT NULL,
      series text NOT NULL,
      start_value bigint NOT NULL,
      end_value bigint NOT NULL,
      created_at text NOT NULL,
      PRIMARY KEY (account_id, series, start_value)
    )`,
  ],
  HUB_WEBHOOK_TABLES,
  // A push looks up the rows it writes and names among every business's (pg-storage.ts, rowStore).
  ['CREATE INDEX IF NOT EXISTS hub_rows_key ON hub_rows (tbl, pk)'],
  // Keys every hub process must share, such as the one passkey challenges are signed with (pg-secrets.ts).
  ['CREATE TABLE hub_secrets (name text PRIMARY KEY, value text NOT NULL)'],
  // Who wrote each column and on which device, beside its clock (docs/crew-design.md).
  ['ALTER TABLE hub_rows ADD COLUMN actors text'],
];

/** Any number of hub processes may start at once: a transaction-scoped lock lets one migrate. */
const MIGRATION_LOCK = 0x5d_4b_0b;

export async function migratePgHub(pool: Pool): Promise<void> {
  const client = await pool.connect();
  try {
    await client.query('BEGIN');
    await client.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await client.query('CREATE TABLE IF NOT EXISTS hub_schema_migrations (version integer PRIMARY KEY)');
    const { rows } = await client.query<{ version: number }>('SELECT version FROM hub_schema_migrations');
    const done = new Set(rows.map((r) => r.version));
    for (const [index, statements] of MIGRATIONS.entries()) {
      const version = index + 1;
      if (done.has(version)) continue;
      for (const statement of statements) await client.query(statement);
      await client.query('INSERT INTO hub_schema_migrations (version) VALUES ($1)', [version]);
    }
    await client.query('COMMIT');
  } catch (error) {
    await client.query('ROLLBACK').catch(() => {});
    throw error;
  } finally {
    client.release();
  }
}
