import { randomBytes } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import type { AppContext } from '../context';
import { newMemberSession, openMemberSession } from '../domain/member-sessions';
import type { MemberDoor } from './member-door';
import type { ClientHubRows } from './rows';

/**
 * An install's door: its SQLite (through the rows port for reads), sessions opened by the domain
 * in one transaction with the invitation's use, the install's own session cookie. An install is
 * one process, so its challenge key lives in memory: a restart mid-ceremony only asks for a retry.
 */
export function installDoor(
  ctx: AppContext,
  rows: ClientHubRows,
  cookieName: (request: FastifyRequest) => string,
): MemberDoor {
  const key = randomBytes(32);
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
        return openMemberSession(tx, ctx.clock, invite.account_id, invite.member_id, userAgent);
      }),
    open: (accountId, memberId, userAgent, sessionId) =>
      ctx.db.transaction().execute(async (tx) => {
        const used = await tx
          .selectFrom('member_sessions')
          .select('id')
          .where('id', '=', sessionId)
          .executeTakeFirst();
        if (used) return null;
        return openMemberSession(tx, ctx.clock, accountId, memberId, userAgent, sessionId);
      }),
    challengeKey: async () => key,
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
 * `challengeKey` is the hub's, kept in its database so every process behind a balancer shares it.
 */
export function hubDoor(
  rows: ClientHubRows,
  now: () => Date,
  challengeKey: () => Promise<Uint8Array>,
): MemberDoor {
  const open = async (accountId: string, memberId: string, userAgent: string | null, id?: string) => {
    const { row, token } = newMemberSession({ now }, accountId, memberId, userAgent, id);
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
    // Two replays at the same instant could both pass the read; the later write replaces the
    // earlier's token hash, so at most one of their cookies signs anyone in.
    open: async (accountId, memberId, userAgent, sessionId) =>
      (await rows.readRow(accountId, 'member_sessions', sessionId))
        ? null
        : open(accountId, memberId, userAgent, sessionId),
    challengeKey,
    revoke: async (accountId, sessionId) => {
      const found = await rows.readRow(accountId, 'member_sessions', sessionId);
      if (!found || found.row.revoked_at) return;
      await rows.writeRow(accountId, 'member_sessions', { ...found.row, revoked_at: now().toISOString() });
    },
  };
}
