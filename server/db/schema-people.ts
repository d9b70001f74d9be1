import type { MemberRole } from '../../shared/schemas/team';

/** Tables of migration 0031: the people who sign in (docs/crew-design.md). */

/** The team (migration 0001); role, e-mail, phone and price visibility came with 0031. */
export interface TeamMembersTable {
  id: string;
  account_id: string;
  name: string;
  created_at: string;
  /** Set while the member is off the team for new work; finished jobs keep their name. */
  deactivated_at: string | null;
  /** Members added before roles, and assignees typed in, are crew. */
  role: MemberRole;
  email: string | null;
  phone: string | null;
  /** 1 when a crew member may see prices (owner and office always do). */
  can_see_prices: number;
}

export interface MemberSessionsTable {
  id: string;
  account_id: string;
  member_id: string;
  /** SHA-256 of the cookie's secret; the cookie holds `<id>.<secret>`. */
  token_hash: string;
  user_agent: string | null;
  created_at: string;
  expires_at: string;
  revoked_at: string | null;
}

export type { MemberRole };

/** Tables of migration 0032: how a member first signs in, and their passkeys. */

export interface MemberInvitesTable {
  id: string;
  account_id: string;
  member_id: string;
  /** SHA-256 of the link's secret; the link holds `<id>.<secret>`. */
  token_hash: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  revoked_at: string | null;
}

export interface MemberPasskeysTable {
  id: string;
  account_id: string;
  member_id: string;
  /** The credential's id, base64url, as the authenticator gave it. */
  credential_id: string;
  /** The COSE public key, base64url. */
  public_key: string;
  /** JSON array of the authenticator's transports ('internal', 'hybrid', ...), when it said. */
  transports: string | null;
  created_at: string;
  revoked_at: string | null;
}

/** The people tables, as the Database interface (schema.ts) holds them. */
export interface PeopleTables {
  member_sessions: MemberSessionsTable;
  member_invites: MemberInvitesTable;
  member_passkeys: MemberPasskeysTable;
}
