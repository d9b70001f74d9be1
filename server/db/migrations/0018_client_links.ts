import { type Kysely, sql } from 'kysely';

/**
 * Client hub links (docs/client-hub.md): one customer of one business per link. The URL carries
 * the link's id and a 256-bit secret; only the secret's SHA-256 is kept. Synced, so a hosted hub
 * holding the business's rows can check a link while every owner device is off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE client_links (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      customer_id TEXT NOT NULL REFERENCES customers(id),
      token_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      revoked_at TEXT
    )`)
    .execute(db);
  await sql.raw('CREATE INDEX client_links_customer ON client_links(customer_id, id)').execute(db);
}
