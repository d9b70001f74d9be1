import { type Kysely, sql } from 'kysely';

/**
 * The crew signs in as themselves (issue 22, docs/crew-design.md): every team member gets a role,
 * how to reach them and whether the crew sees prices; a sign-in on any install or on the hosted hub
 * is a synced session row, so the hub can check it while every owner computer is off and an owner's
 * revocation reaches every server. Existing members were added as assignees: they are crew.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `ALTER TABLE team_members ADD COLUMN role TEXT NOT NULL DEFAULT 'crew'
      CHECK (role IN ('owner', 'office', 'crew'))`,
    'ALTER TABLE team_members ADD COLUMN email TEXT',
    'ALTER TABLE team_members ADD COLUMN phone TEXT',
    `ALTER TABLE team_members ADD COLUMN can_see_prices INTEGER NOT NULL DEFAULT 0
      CHECK (can_see_prices IN (0, 1))`,
    `CREATE TABLE member_sessions (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      member_id TEXT NOT NULL REFERENCES team_members(id),
      token_hash TEXT NOT NULL,
      user_agent TEXT,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      revoked_at TEXT
    )`,
    'CREATE INDEX member_sessions_member ON member_sessions(member_id, id)',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
