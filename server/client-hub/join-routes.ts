import type { FastifyInstance, FastifyReply } from 'fastify';
import type { MemberInvitesTable, TeamMembersTable } from '../db/schema';
import { inviteIdOf, inviteRedeemable } from '../domain/member-invites';
import { RateLimiter } from '../http/rate-limiter';
import { formToken, formTokenMatches } from '../lib/client-token';
import type { Clock } from '../lib/clock';
import { rateLimited } from '../lib/errors';
import { businessConfig } from './data';
import { inviteGonePage, joinPage } from './join-page';
import { type MemberDoor, memberCookie, sameOrigin, setMemberCookie, userAgent } from './member-door';
import { MEMBER_SCHEMAS } from './member-openapi';
import { memberFromRows } from './member-sign-in';
import { messagePage } from './page';
import { memberPasskeyRoutes } from './passkey-routes';
import { publicPages } from './public-page-routes';
import { ADDRESS_LIMIT } from './routes';

const WINDOW_MS = 60_000;

interface Found {
  accountId: string;
  invite: MemberInvitesTable;
  member: TeamMembersTable;
  business: string;
}

/**
 * A team member's way in (docs/crew.md): the invitation's page and its one-time redemption, the
 * passkey sign-in, and sign-out. Served by the hosted hub and by every install, from the rows the
 * server holds, so a member joins while every owner computer is off.
 */
export function memberDoorRoutes(door: MemberDoor, clock: Clock) {
  const limiter = new RateLimiter();
  return async (app: FastifyInstance) => {
    publicPages(app);
    app.addHook('onRequest', async (request, reply) => {
      const rules = [{ bucket: `address:${request.ip}`, limit: ADDRESS_LIMIT, windowMs: WINDOW_MS }];
      const decision = limiter.take(rules, clock.now().getTime());
      if (!decision.allowed) {
        // The passkey and sign-out calls are the app's JSON: the contract's shape; pages get a page.
        if (request.url.startsWith('/member/'))
          throw rateLimited(
            'Too many sign-in attempts from this address: wait a minute.',
            decision.retryAfterSeconds,
          );
        reply.header('Retry-After', String(decision.retryAfterSeconds));
        return reply
          .code(429)
          .type('text/html; charset=utf-8')
          .send(messagePage('Too many requests', 'Please wait a minute and try again.'));
      }
      if (request.method === 'POST' && !sameOrigin(request)) {
        return reply
          .code(403)
          .type('text/html; charset=utf-8')
          .send(messagePage('Not sent', 'This form must be sent from its own page.'));
      }
    });

    const find = async (token: string): Promise<Found | undefined> => {
      const id = inviteIdOf(token);
      const invite = id && (await door.rows.readRow(null, 'member_invites', id));
      if (!invite) return undefined;
      const row = invite.row as unknown as MemberInvitesTable;
      const member = await door.rows.readRow(invite.accountId, 'team_members', row.member_id);
      const config = await businessConfig(door.rows, invite.accountId);
      const memberRow = member?.row as unknown as TeamMembersTable | undefined;
      if (!memberRow || !config || !inviteRedeemable(token, row, memberRow, clock.now())) return undefined;
      return { accountId: invite.accountId, invite: row, member: memberRow, business: config.business_name };
    };

    const gone = (reply: FastifyReply) =>
      reply.code(410).type('text/html; charset=utf-8').send(inviteGonePage());

    app.get<{ Params: { token: string } }>(
      '/join/:token',
      { schema: MEMBER_SCHEMAS.join },
      async (request, reply) => {
        const found = await find(request.params.token);
        if (!found) return gone(reply);
        const page = joinPage(
          found.business,
          found.member.name,
          `/join/${request.params.token}`,
          formToken(found.invite.id, found.invite.token_hash),
        );
        return reply.type('text/html; charset=utf-8').send(page);
      },
    );

    app.post<{ Params: { token: string }; Body: Record<string, string> }>(
      '/join/:token',
      { schema: MEMBER_SCHEMAS.redeem },
      async (request, reply) => {
        const found = await find(request.params.token);
        if (!found) return gone(reply);
        const given = String(request.body?.form_token ?? '');
        if (!formTokenMatches(given, found.invite.id, found.invite.token_hash)) {
          return reply
            .code(403)
            .type('text/html; charset=utf-8')
            .send(messagePage('Not sent', 'This form has expired: open the link again.'));
        }
        const session = await door.redeem(found.invite, userAgent(request));
        if (!session) return gone(reply);
        setMemberCookie(door, request, reply, session);
        return reply.redirect(door.landing(found.member.role), 303);
      },
    );

    app.post('/member/sign-out', { schema: MEMBER_SCHEMAS.signOut }, async (request, reply) => {
      const token = memberCookie(door, request);
      const signedIn = token ? await memberFromRows(door.rows, token, clock.now()) : undefined;
      if (signedIn?.member.sessionId) await door.revoke(signedIn.accountId, signedIn.member.sessionId);
      setMemberCookie(door, request, reply, null);
      return reply.code(204).send();
    });

    memberPasskeyRoutes(app, door, clock);
  };
}
