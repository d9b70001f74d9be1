import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { newMemberSession, openMemberSession } from '../domain/member-sessions';
import type { MemberDoor } from './member-door';
import type { ClientHubRows } from './rows';

/**
 * An install's door: its SQLite (through the rows port for reads), sessions opened by the domain
 * in one transaction with the invitation's use, the install's own session cookie.
 */
export function installDoor(
  ctx: AppContext,
  rows: ClientHubRows,
  cookieName: (request: FastifyRequest) => string,
): MemberDoor {
  return {
    rows,
    cookieName,
    sameSite: 'Strict',
    landing: (role) => (role === 'crew' ? '/crew/' : '/'),
    redeem: (invite, userAgent) =>
      ctx.db.transaction().execute(async (tx) => {
        const used = await tx
          .updateTable('member_invites')
          .set({ used_at: ctx.clock.now().toISOString() })
          .where('id', '=', invite.id)
          .where('used_at', 'is', null)
          .where('revoked_at', 'is', null)
          .executeTakeFirst();
        if (Number(used.numUpdatedRows) === 0) return null;
        return openMemberSession(tx, ctx, invite.account_id, invite.member_id, userAgent);
      }),
    open: (accountId, memberId, userAgent) =>
      ctx.db.transaction().execute((tx) => openMemberSession(tx, ctx, accountId, memberId, userAgent)),
    revoke: async (_accountId, sessionId) => {
      await ctx.db
        .updateTable('member_sessions')
        .set({ revoked_at: ctx.clock.now().toISOString() })
        .where('id', '=', sessionId)
        .where('revoked_at', 'is', null)
        .execute();
    },
  };
}

/** The cookie the hosted hub signs members in with (K-COMMON convention). */
export const HUB_MEMBER_COOKIE = 'sd_member';

/**
 * The hosted hub's door: every row through the hub's port, written as hub-originated changes the
 * business's devices pull. The hub has no office screens, so everyone lands on the crew's app.
 */
export function hubDoor(rows: ClientHubRows, now: () => Date): MemberDoor {
  const open = async (accountId: string, memberId: string, userAgent: string | null) => {
    const { row, token } = newMemberSession(
      { clock: { now }, ids: rows.ids },
      accountId,
      memberId,
      userAgent,
    );
    await rows.writeRow(accountId, 'member_sessions', { ...row });
    return { token, expiresAt: row.expires_at };
  };
  return {
    rows,
    cookieName: () => HUB_MEMBER_COOKIE,
    sameSite: 'Lax',
    landing: () => '/crew/',
    redeem: async (invite, userAgent) => {
      await rows.writeRow(invite.account_id, 'member_invites', {
        ...invite,
        used_at: now().toISOString(),
      });
      return open(invite.account_id, invite.member_id, userAgent);
    },
    open,
    revoke: async (accountId, sessionId) => {
      const found = await rows.readRow(accountId, 'member_sessions', sessionId);
      if (!found || found.row.revoked_at) return;
      await rows.writeRow(accountId, 'member_sessions', { ...found.row, revoked_at: now().toISOString() });
    },
  };
}
