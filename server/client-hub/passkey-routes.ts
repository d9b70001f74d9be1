import {
  type AuthenticationResponseJSON,
  generateAuthenticationOptions,
  generateRegistrationOptions,
  type RegistrationResponseJSON,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
} from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemberPasskeysTable, TeamMembersTable } from '../db/schema';
import type { Clock } from '../lib/clock';
import { ApiError, unauthorized, validationError } from '../lib/errors';
import { businessConfig } from './data';
import { type MemberDoor, memberCookie, setMemberCookie, userAgent } from './member-door';
import { MEMBER_SCHEMAS } from './member-openapi';
import { memberFromRows } from './member-sign-in';
import { Challenges } from './passkey-challenges';

const refused = (message: string) => new ApiError(401, 'passkey_refused', message);

/**
 * Passkeys (docs/crew-design.md, "Passkeys"): a signed-in member registers one; anyone may sign
 * in with one. The relying party is the host the page is served on, and the signature counter is
 * not enforced: synced passkeys are multi-device credentials that may report 0.
 */
export function memberPasskeyRoutes(app: FastifyInstance, door: MemberDoor, clock: Clock): void {
  const challenges = new Challenges(() => clock.now().getTime());
  const rpId = (request: FastifyRequest) => new URL(`http://${request.headers.host}`).hostname;
  const origin = (request: FastifyRequest) => String(request.headers.origin);

  const signedIn = async (request: FastifyRequest) => {
    const token = memberCookie(door, request);
    const found = token ? await memberFromRows(door.rows, token, clock.now()) : undefined;
    if (!found?.member.id) throw unauthorized('Sign in first: open your invitation link.');
    return { accountId: found.accountId, memberId: found.member.id };
  };

  app.post(
    '/member/passkeys/registration-options',
    { schema: MEMBER_SCHEMAS.registrationOptions },
    async (request) => {
      const { accountId, memberId } = await signedIn(request);
      const [member, config, existing] = await Promise.all([
        door.rows.readRow(accountId, 'team_members', memberId),
        businessConfig(door.rows, accountId),
        door.rows.readRows(accountId, 'member_passkeys', { column: 'member_id', values: [memberId] }),
      ]);
      const options = await generateRegistrationOptions({
        rpName: config?.business_name ?? 'Shopdesk',
        rpID: rpId(request),
        userName: String(member?.row.email ?? member?.row.name ?? memberId),
        userDisplayName: String(member?.row.name ?? ''),
        // The user handle names the business and member, so a sign-in finds the key in one read.
        userID: new TextEncoder().encode(`${accountId}:${memberId}`),
        attestationType: 'none',
        excludeCredentials: existing
          .filter((p) => !p.revoked_at)
          .map((p) => ({ id: String(p.credential_id) })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'preferred' },
      });
      challenges.keep(options.challenge, `register:${memberId}`);
      return options;
    },
  );

  app.post<{ Body: RegistrationResponseJSON }>(
    '/member/passkeys/registration',
    { schema: MEMBER_SCHEMAS.registration },
    async (request, reply) => {
      const { accountId, memberId } = await signedIn(request);
      if (!request.body || typeof request.body !== 'object')
        throw validationError('Send the passkey as JSON');
      const result = await verifyRegistrationResponse({
        response: request.body,
        expectedChallenge: (challenge) => challenges.take(challenge, `register:${memberId}`),
        expectedOrigin: origin(request),
        expectedRPID: rpId(request),
        requireUserVerification: false,
      }).catch((error: Error) => {
        throw refused(`This passkey was not accepted: ${error.message}`);
      });
      if (!result.verified) throw refused('This passkey was not accepted.');
      const { credential } = result.registrationInfo;
      const row: MemberPasskeysTable = {
        id: door.rows.ids.next('mpk', clock.now().getTime()),
        account_id: accountId,
        member_id: memberId,
        credential_id: credential.id,
        public_key: Buffer.from(credential.publicKey).toString('base64url'),
        transports: credential.transports ? JSON.stringify(credential.transports) : null,
        created_at: clock.now().toISOString(),
        revoked_at: null,
      };
      await door.rows.writeRow(accountId, 'member_passkeys', { ...row });
      return reply.code(201).send({ object: 'member_passkey', id: row.id, created_at: row.created_at });
    },
  );

  app.post(
    '/member/passkeys/authentication-options',
    { schema: MEMBER_SCHEMAS.authenticationOptions },
    async (request) => {
      const options = await generateAuthenticationOptions({
        rpID: rpId(request),
        userVerification: 'preferred',
      });
      challenges.keep(options.challenge, 'sign-in');
      return options;
    },
  );

  app.post<{ Body: AuthenticationResponseJSON }>(
    '/member/passkeys/authentication',
    { schema: MEMBER_SCHEMAS.authentication },
    async (request, reply) => {
      const body = request.body;
      if (!body || typeof body !== 'object' || typeof body.id !== 'string') {
        throw validationError('Send the passkey sign-in as JSON');
      }
      const handle = Buffer.from(body.response?.userHandle ?? '', 'base64url').toString('utf8');
      const [accountId, memberId] = handle.split(':');
      if (!accountId || !memberId) throw refused('This passkey is not one of this business’s.');
      const keys = await door.rows.readRows(accountId, 'member_passkeys', {
        column: 'credential_id',
        values: [body.id],
      });
      const key = keys.find((k) => k.member_id === memberId && !k.revoked_at) as
        | MemberPasskeysTable
        | undefined;
      if (!key) throw refused('This passkey was revoked or is unknown: ask the owner for a new link.');
      const member = (await door.rows.readRow(accountId, 'team_members', memberId))?.row as
        | TeamMembersTable
        | undefined;
      if (!member || member.deactivated_at) throw refused('You are no longer on this team.');
      const result = await verifyAuthenticationResponse({
        response: body,
        expectedChallenge: (challenge) => challenges.take(challenge, 'sign-in'),
        expectedOrigin: origin(request),
        expectedRPID: rpId(request),
        credential: {
          id: key.credential_id,
          publicKey: new Uint8Array(Buffer.from(key.public_key, 'base64url')),
          counter: 0,
        },
        requireUserVerification: false,
      }).catch((error: Error) => {
        throw refused(`This passkey sign-in was not accepted: ${error.message}`);
      });
      if (!result.verified) throw refused('This passkey sign-in was not accepted.');
      const session = await door.open(accountId, memberId, userAgent(request));
      setMemberCookie(door, request, reply, session);
      return { object: 'member_sign_in', redirect: door.landing(member.role) };
    },
  );
}
