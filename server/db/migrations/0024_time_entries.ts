import { type Kysely, sql } from 'kysely';

/**
 * Hours (issue 22): what each team member worked, per visit or per day, for the owner's timesheet
 * and payroll. Synced, so a clock-in on one install shows on every other; a removed entry keeps
 * its row with deleted_at, so a removal made on one device wins over an edit made on another.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE time_entries (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      member_id TEXT NOT NULL REFERENCES team_members(id),
      job_id TEXT REFERENCES jobs(id),
      started_at TEXT NOT NULL,
      ended_at TEXT,
      source TEXT NOT NULL CHECK (source IN ('office', 'clock')),
      note TEXT,
      status TEXT NOT NULL DEFAULT 'kept' CHECK (status IN ('kept', 'deleted')),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    'CREATE INDEX time_entries_account_start ON time_entries(account_id, started_at)',
    'CREATE INDEX time_entries_member_start ON time_entries(member_id, started_at)',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
