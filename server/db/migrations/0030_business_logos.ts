import { type Kysely, sql } from 'kysely';

/**
 * The business's logo (issue 21): one row per business, keyed by the business's own id, so two
 * devices that each set a logo while apart end with one (the later). Synced (server/sync/tables.ts),
 * so the hosted hub holds it and shows it on the client hub while every owner computer is off; the
 * image travels as base64 because synced rows travel as JSON.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE business_logos (
      id TEXT PRIMARY KEY REFERENCES accounts(id),
      account_id TEXT NOT NULL REFERENCES accounts(id),
      content_type TEXT NOT NULL CHECK (content_type IN ('image/png', 'image/jpeg')),
      size_bytes INTEGER NOT NULL,
      data TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      CHECK (id = account_id)
    )`)
    .execute(db);
}
