import type { MemberSessionsTable, TeamMembersTable } from '../db/schema';
import { isMemberSessionToken, memberSignedIn, type SignedInMember } from '../domain/member-sessions';
import type { ClientHubRows } from './rows';

/**
 * Who a member-session cookie signs in, checked from the rows a server holds: the hosted hub's
 * (while every owner computer is off) or an install's own. The rule itself is the domain's
 * (memberSignedIn), so every server decides alike.
 */
export async function memberFromRows(
  rows: ClientHubRows,
  token: string,
  now: Date,
): Promise<{ accountId: string; member: SignedInMember } | undefined> {
  if (!isMemberSessionToken(token)) return undefined;
  const session = await rows.readRow(null, 'member_sessions', token.slice(0, token.indexOf('.')));
  if (!session) return undefined;
  const sessionRow = session.row as unknown as MemberSessionsTable;
  const member = await rows.readRow(session.accountId, 'team_members', sessionRow.member_id);
  const signedIn = memberSignedIn(
    token,
    sessionRow,
    member?.row as unknown as TeamMembersTable | undefined,
    now,
  );
  return signedIn ? { accountId: session.accountId, member: signedIn } : undefined;
}
