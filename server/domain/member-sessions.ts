import type { MemberRole } from '../../shared/schemas/team';
import type { Queryable, Tx } from '../db/database';
import type { MemberSessionsTable, TeamMembersTable } from '../db/schema';
import { hashClientSecret, newClientSecret, secretMatches } from '../lib/client-token';
import type { Clock } from '../lib/clock';
import { newId } from '../lib/ids';

/** How long a team member stays signed in on one browser (docs/crew-design.md, "Sessions per person"). */
export const MEMBER_SESSION_DAYS = 30;

const TOKEN = /^(mss_[0-9a-hjkmnp-tv-z]{26})\.([A-Za-z0-9_-]{43})$/;

/** Who a request acts for once signed in; `id` null is the install's owner before members existed. */
export interface SignedInMember {
  id: string | null;
  role: MemberRole;
  canSeePrices: boolean;
  /** The session row the cookie names; null for an API key or the owner's install-local session. */
  sessionId: string | null;
}

/** The owner's own sign-in and API keys: everything, prices included. */
export const INSTALL_OWNER: SignedInMember = { id: null, role: 'owner', canSeePrices: true, sessionId: null };

export function isMemberSessionToken(token: string): boolean {
  return TOKEN.test(token);
}

/**
 * A new session for a member: the row every storage keeps (an install's SQLite or the hosted hub's
 * rows) and the cookie's token, shown once. Pure, so the install and the hub make it the same way.
 */
export function newMemberSession(
  clock: Clock,
  accountId: string,
  memberId: string,
  userAgent: string | null,
  id?: string,
): { row: MemberSessionsTable; token: string } {
  const now = clock.now();
  const secret = newClientSecret();
  const row: MemberSessionsTable = {
    id: id ?? newId('mss', now.getTime()),
    account_id: accountId,
    member_id: memberId,
    token_hash: hashClientSecret(secret),
    user_agent: userAgent?.slice(0, 300) ?? null,
    created_at: now.toISOString(),
    expires_at: new Date(now.getTime() + MEMBER_SESSION_DAYS * 86_400_000).toISOString(),
    revoked_at: null,
  };
  return { row, token: `${row.id}.${secret}` };
}

type SessionRow = Pick<MemberSessionsTable, 'id' | 'token_hash' | 'expires_at' | 'revoked_at'>;
type MemberRow = Pick<TeamMembersTable, 'id' | 'role' | 'can_see_prices' | 'deactivated_at'>;

/**
 * The one rule for whether a session token signs its member in, whichever storage holds the rows:
 * the secret matches in constant time, the session is neither revoked nor expired, and the member
 * is still on the team.
 */
export function memberSignedIn(
  token: string,
  session: SessionRow | undefined,
  member: MemberRow | undefined,
  now: Date,
): SignedInMember | null {
  const match = TOKEN.exec(token);
  if (!match || !session || !member || session.id !== match[1]) return null;
  if (!secretMatches(match[2]!, session.token_hash)) return null;
  if (session.revoked_at || new Date(session.expires_at) <= now || member.deactivated_at) return null;
  return {
    id: member.id,
    role: member.role,
    canSeePrices: member.role !== 'crew' || member.can_see_prices === 1,
    sessionId: session.id,
  };
}

/**
 * Keeps a new session on this install; the capture triggers sync it like any row. `id` is given
 * when the session's id derives from what opened it (a passkey challenge, used once).
 */
export async function openMemberSession(
  tx: Tx,
  clock: Clock,
  accountId: string,
  memberId: string,
  userAgent: string | null,
  id?: string,
): Promise<{ token: string; accountId: string; expiresAt: string }> {
  const { row, token } = newMemberSession(clock, accountId, memberId, userAgent, id);
  await tx.insertInto('member_sessions').values(row).execute();
  return { token, accountId, expiresAt: row.expires_at };
}

/** Who a session cookie signs in on this install, with the business it belongs to. */
export async function authenticateMemberSession(
  db: Queryable,
  clock: Clock,
  token: string,
): Promise<{ accountId: string; member: SignedInMember } | undefined> {
  const id = TOKEN.exec(token)?.[1];
  if (!id) return undefined;
  const session = await db.selectFrom('member_sessions').selectAll().where('id', '=', id).executeTakeFirst();
  if (!session) return undefined;
  const member = await db
    .selectFrom('team_members')
    .select(['id', 'role', 'can_see_prices', 'deactivated_at'])
    .where('id', '=', session.member_id)
    .executeTakeFirst();
  const signedIn = memberSignedIn(token, session, member, clock.now());
  return signedIn ? { accountId: session.account_id, member: signedIn } : undefined;
}
