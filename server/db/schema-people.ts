import type { MemberRole } from '../../shared/schemas/team';

/** Tables of migration 0031: the people who sign in (docs/crew-design.md). */

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
