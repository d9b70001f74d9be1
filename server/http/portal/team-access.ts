import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  MemberInvite,
  MemberInviteCreate,
  MemberPasskey,
  MemberSession,
  Revoked,
} from '../../../shared/schemas/team-access';
import type { AppContext } from '../../context';
import * as access from '../../domain/member-access';
import { inviteMember } from '../../domain/member-invites';
import { roleForbidden } from '../../lib/errors';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['scheduling'];
const Member = PortalParams.extend({ id: z.string().meta({ description: 'The team member (tm_…).' }) });
const OWNER_ONLY = 'Owner only: office and crew sessions get 403 role_forbidden.';

/** Invitations, sessions and passkeys are the owner's: a member's sign-in is a team role. */
function ownerOnly(request: FastifyRequest): void {
  if (request.auth.member.role !== 'owner') {
    throw roleForbidden("Only an owner may manage the team's sign-ins");
  }
}

/** The owner's view of each member's sign-ins (docs/crew.md, "Inviting" and "Sessions and passkeys"). */
export function portalTeamAccessRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('preHandler', async (request) => ownerOnly(request));

    app.post(
      '/team/:id/invites',
      {
        schema: {
          tags,
          summary: 'Invite a team member',
          description: `A one-time sign-in link (7 days) with its QR code; the member's older unused links stop working. email: true also e-mails it. ${OWNER_ONLY}`,
          params: Member,
          body: MemberInviteCreate,
          response: { 201: MemberInvite, ...commonErrors },
        },
      },
      async (request, reply) => {
        const invite = await inviteMember(ctx, request.auth.account.id, request.params.id, {
          thisInstall: `${request.protocol}://${request.headers.host}`,
          email: request.body.email ?? false,
        });
        // Loaded here: with its PNG encoder it is some sixty files no start needs.
        const { default: QRCode } = await import('qrcode');
        const qr_svg = await QRCode.toString(invite.url, { type: 'svg', margin: 1 });
        return reply.status(201).send({ object: 'member_invite' as const, ...invite, qr_svg });
      },
    );

    app.get(
      '/team/:id/sessions',
      {
        schema: {
          tags,
          summary: "A team member's sessions",
          description: `The browsers signed in as the member now, newest first. ${OWNER_ONLY}`,
          params: Member,
          response: { 200: z.object({ data: z.array(MemberSession) }), ...commonErrors },
        },
      },
      async (request) => ({
        data: await access.listMemberSessions(ctx, request.auth.account.id, request.params.id),
      }),
    );

    app.post(
      '/team/:id/sessions/revoke',
      {
        schema: {
          tags,
          summary: "End all of a team member's sessions",
          description: `Every server refuses them once the change reaches it (it syncs). ${OWNER_ONLY}`,
          params: Member,
          response: { 200: Revoked, ...commonErrors },
        },
      },
      (request) => access.revokeMemberSessions(ctx, request.auth.account.id, request.params.id, null),
    );

    app.post(
      '/team/:id/sessions/:session_id/revoke',
      {
        schema: {
          tags,
          summary: "End one of a team member's sessions",
          description: OWNER_ONLY,
          params: Member.extend({ session_id: z.string() }),
          response: { 200: Revoked, ...commonErrors },
        },
      },
      (request) =>
        access.revokeMemberSessions(
          ctx,
          request.auth.account.id,
          request.params.id,
          request.params.session_id,
        ),
    );

    app.get(
      '/team/:id/passkeys',
      {
        schema: {
          tags,
          summary: "A team member's passkeys",
          description: OWNER_ONLY,
          params: Member,
          response: { 200: z.object({ data: z.array(MemberPasskey) }), ...commonErrors },
        },
      },
      async (request) => ({
        data: await access.listMemberPasskeys(ctx, request.auth.account.id, request.params.id),
      }),
    );

    app.post(
      '/team/:id/passkeys/:passkey_id/revoke',
      {
        schema: {
          tags,
          summary: "Revoke a team member's passkey",
          description: `It no longer signs them in on any server once the change reaches it. ${OWNER_ONLY}`,
          params: Member.extend({ passkey_id: z.string() }),
          response: { 200: Revoked, ...commonErrors },
        },
      },
      (request) =>
        access.revokeMemberPasskey(
          ctx,
          request.auth.account.id,
          request.params.id,
          request.params.passkey_id,
        ),
    );
  };
}
