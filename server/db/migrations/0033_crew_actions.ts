import { type Kysely, sql } from 'kysely';

/**
 * What crew members did on their phones (docs/crew.md, "The phone"): recorded at once by whatever
 * served the phone (the hosted hub or an install), applied once by whichever install holds the
 * business, like the client hub's client_actions (docs/decisions.md says why a sibling table).
 * The id is made on the phone, so a resent action is the same row. Synced; `status` merges by rank.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE crew_actions (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      member_id TEXT NOT NULL REFERENCES team_members(id),
      session_id TEXT NOT NULL,
      kind TEXT NOT NULL
        CHECK (kind IN ('on_my_way', 'start', 'complete', 'clock_in', 'clock_out')),
      job_id TEXT,
      payload TEXT NOT NULL,
      done_at TEXT NOT NULL,
      created_at TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'pending',
      outcome TEXT,
      applied_at TEXT
    )`)
    .execute(db);
  await sql
    .raw('CREATE INDEX crew_actions_pending ON crew_actions(account_id, status, done_at, id)')
    .execute(db);
  await sql.raw('CREATE INDEX crew_actions_job ON crew_actions(job_id, id)').execute(db);
}
