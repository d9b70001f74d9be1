import { type Kysely, sql } from 'kysely';

/**
 * What customers did on the client hub (docs/client-hub.md): recorded at once where they did it,
 * applied once by whichever install holds the business. Synced; `status` merges by rank
 * (pending < refused < applied, tables.ts).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE client_actions (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      customer_id TEXT NOT NULL,
      link_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      subject_id TEXT NOT NULL,
      payload TEXT NOT NULL,
      ip TEXT,
      created_at TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending',
      outcome TEXT,
      applied_at TEXT
    )`)
    .execute(db);
  await sql.raw('CREATE INDEX client_actions_pending ON client_actions(account_id, status, id)').execute(db);
  await sql.raw('CREATE INDEX client_actions_subject ON client_actions(subject_id, id)').execute(db);
}
