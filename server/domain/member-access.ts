import type { MemberPasskey, MemberSession } from '../../shared/schemas/team-access';
import type { AppContext } from '../context';
import { isoNow } from '../lib/clock';
import { notFound } from '../lib/errors';

/**
 * What the owner sees and ends of a member's sign-ins (docs/crew.md, "Sessions and passkeys"):
 * revoking sets revoked_at, which syncs, and every server refuses the session or passkey after.
 */

async function memberOf(ctx: AppContext, accountId: string, memberId: string) {
  const member = await ctx.db
    .selectFrom('team_members')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', memberId)
    .executeTakeFirst();
  if (!member) throw notFound(`No team member ${memberId}`);
}

/** The member's sessions that still sign them in, newest first. */
export async function listMemberSessions(
  ctx: AppContext,
  accountId: string,
  memberId: string,
): Promise<MemberSession[]> {
  await memberOf(ctx, accountId, memberId);
  const rows = await ctx.db
    .selectFrom('member_sessions')
    .select(['id', 'user_agent', 'created_at', 'expires_at'])
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .where('expires_at', '>', isoNow(ctx.clock))
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({ object: 'member_session' as const, ...row }));
}

/** Ends one session of the member, or all of them when `sessionId` is null; answers how many ended. */
export async function revokeMemberSessions(
  ctx: AppContext,
  accountId: string,
  memberId: string,
  sessionId: string | null,
): Promise<{ revoked: number }> {
  await memberOf(ctx, accountId, memberId);
  let update = ctx.db
    .updateTable('member_sessions')
    .set({ revoked_at: isoNow(ctx.clock) })
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null);
  if (sessionId) update = update.where('id', '=', sessionId);
  const result = await update.executeTakeFirst();
  const revoked = Number(result.numUpdatedRows);
  if (sessionId && revoked === 0) throw notFound(`No live session ${sessionId} for this member`);
  return { revoked };
}

export async function listMemberPasskeys(
  ctx: AppContext,
  accountId: string,
  memberId: string,
): Promise<MemberPasskey[]> {
  await memberOf(ctx, accountId, memberId);
  const rows = await ctx.db
    .selectFrom('member_passkeys')
    .select(['id', 'transports', 'created_at'])
    .where('member_id', '=', memberId)
    .where('revoked_at', 'is', null)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((row) => ({
    object: 'member_passkey' as const,
    id: row.id,
    created_at: row.created_at,
    transports: row.transports ? (JSON.parse(row.transports) as string[]) : [],
  }));
}

export async function revokeMemberPasskey(
  ctx: AppContext,
  accountId: string,
  memberId: string,
  passkeyId: string,
): Promise<{ revoked: number }> {
  await memberOf(ctx, accountId, memberId);
  const result = await ctx.db
    .updateTable('member_passkeys')
    .set({ revoked_at: isoNow(ctx.clock) })
    .where('member_id', '=', memberId)
    .where('id', '=', passkeyId)
    .where('revoked_at', 'is', null)
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) === 0) throw notFound(`No passkey ${passkeyId} for this member`);
  return { revoked: 1 };
}
