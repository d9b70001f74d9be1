import { type Kysely, sql } from 'kysely';

/**
 * Decisions become business data and each record gets a history (docs/sync.md, "Decisions and
 * history"). `decisions` is synced: its id is `kind:record_id`, so machines that see the same
 * situation write one row. `sync_decision_checks` and `record_changes` belong to one install.
 * The conflicts listed so far move over as they are; the per-device table goes.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    `CREATE TABLE decisions (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL,
      kind TEXT NOT NULL,
      record_type TEXT NOT NULL,
      record_id TEXT NOT NULL,
      message TEXT NOT NULL,
      status TEXT NOT NULL DEFAULT 'open',
      detected_at TEXT NOT NULL,
      resolved_at TEXT
    )`,
    `CREATE INDEX decisions_account ON decisions(account_id, status)`,
    `INSERT INTO decisions (id, account_id, kind, record_type, record_id, message, status, detected_at, resolved_at)
     SELECT id, account_id, kind, record_type, record_id, message,
       CASE WHEN resolved_at IS NULL THEN 'open' ELSE 'resolved' END, detected_at, resolved_at
     FROM sync_conflicts`,
    'DROP TABLE sync_conflicts',
    // Records a pulled page touched, checked for decisions once the pull has caught up.
    `CREATE TABLE sync_decision_checks (
      account_id TEXT NOT NULL,
      record_type TEXT NOT NULL,
      record_id TEXT NOT NULL,
      PRIMARY KEY (account_id, record_type, record_id)
    ) WITHOUT ROWID`,
    `CREATE TABLE record_changes (
      id INTEGER PRIMARY KEY AUTOINCREMENT,
      account_id TEXT NOT NULL,
      record_type TEXT NOT NULL,
      record_id TEXT NOT NULL,
      field TEXT NOT NULL,
      old_value TEXT,
      new_value TEXT,
      author TEXT NOT NULL,
      node TEXT NOT NULL,
      changed_at TEXT NOT NULL,
      replaced INTEGER NOT NULL DEFAULT 0,
      restored_at TEXT
    )`,
    `CREATE INDEX record_changes_record ON record_changes(account_id, record_type, record_id, id)`,
    `CREATE INDEX record_changes_changed ON record_changes(changed_at)`,
  ])
    await sql.raw(statement).execute(db);
}
