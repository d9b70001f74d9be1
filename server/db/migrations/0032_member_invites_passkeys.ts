import { type Kysely, sql } from 'kysely';

/**
 * How a team member first signs in and signs in again (issue 22, docs/crew-design.md): a one-time
 * invitation whose secret is kept as a hash, and the public keys of their passkeys. Both synced, so
 * the hosted hub redeems an invitation and verifies a passkey while every owner computer is off.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE member_invites (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      member_id TEXT NOT NULL REFERENCES team_members(id),
      token_hash TEXT NOT NULL,
      created_at TEXT NOT NULL,
      expires_at TEXT NOT NULL,
      used_at TEXT,
      revoked_at TEXT
    )`,
    'CREATE INDEX member_invites_member ON member_invites(member_id, id)',
    `CREATE TABLE member_passkeys (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      member_id TEXT NOT NULL REFERENCES team_members(id),
      credential_id TEXT NOT NULL,
      public_key TEXT NOT NULL,
      transports TEXT,
      created_at TEXT NOT NULL,
      revoked_at TEXT
    )`,
    'CREATE INDEX member_passkeys_member ON member_passkeys(member_id, id)',
    'CREATE INDEX member_passkeys_credential ON member_passkeys(credential_id)',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
