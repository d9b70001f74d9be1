import type { AuthenticationResponseJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MemberPasskeysTable, TeamMembersTable } from '../db/schema';
import type { Clock } from '../lib/clock';
import { ApiError, unauthorized, validationError } from '../lib/errors';
import { derivedId } from '../lib/ids';
import { businessConfig } from './data';
import { type MemberDoor, memberCookie, setMemberCookie, userAgent } from './member-door';
import { MEMBER_SCHEMAS } from './member-openapi';
import { memberFromRows } from './member-sign-in';
import { checkChallenge, issueChallenge } from './passkey-challenges';

/**
 * Loaded at the first passkey request: with its certificate and ASN.1 parsers it is a tenth of the
 * server's code, which no start and few installs need.
 */
const webauthn = () => import('@simplewebauthn/server');

const refused = (message: string) => new ApiError(401, 'passkey_refused', message);

/**
 * Passkeys (docs/crew-design.md, "Passkeys"): a signed-in member registers one; anyone may sign
 * in with one. The relying party is the host the page is served on, and the signature counter is
 * not enforced: synced passkeys are multi-device credentials that may report 0.
 */
export function memberPasskeyRoutes(app: FastifyInstance, door: MemberDoor, clock: Clock): void {
  const nowMs = () => clock.now().getTime();
  /** Checks the answer's challenge and keeps its issue time, which the id of what it makes derives from. */
  const challenge = async (purpose: string) => {
    const key = await door.challengeKey();
    const found = { issuedAt: 0, challenge: '' };
    const expected = (given: string) => {
      const issuedAt = checkChallenge(key, given, purpose, nowMs());
      if (issuedAt === null) return false;
      Object.assign(found, { issuedAt, challenge: given });
      return true;
    };
    return { expected, found };
  };
  const used = () => refused('This passkey answer was already used: try again.');
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
      const { generateRegistrationOptions } = await webauthn();
      const options = await generateRegistrationOptions({
        challenge: issueChallenge(await door.challengeKey(), `register:${memberId}`, nowMs()),
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
      const issued = await challenge(`register:${memberId}`);
      const { verifyRegistrationResponse } = await webauthn();
      const result = await verifyRegistrationResponse({
        response: request.body,
        expectedChallenge: issued.expected,
        expectedOrigin: origin(request),
        expectedRPID: rpId(request),
        requireUserVerification: false,
      }).catch((error: Error) => {
        throw refused(`This passkey was not accepted: ${error.message}`);
      });
      if (!result.verified) throw refused('This passkey was not accepted.');
      const { credential } = result.registrationInfo;
      const id = derivedId('mpk', issued.found.issuedAt, issued.found.challenge);
      if (await door.rows.readRow(accountId, 'member_passkeys', id)) throw used();
      const row: MemberPasskeysTable = {
        id,
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
      const { generateAuthenticationOptions } = await webauthn();
      return generateAuthenticationOptions({
        challenge: issueChallenge(await door.challengeKey(), 'sign-in', nowMs()),
        rpID: rpId(request),
        userVerification: 'preferred',
      });
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
      const issued = await challenge('sign-in');
      const { verifyAuthenticationResponse } = await webauthn();
      const result = await verifyAuthenticationResponse({
        response: body,
        expectedChallenge: issued.expected,
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
      const sessionId = derivedId('mss', issued.found.issuedAt, issued.found.challenge);
      const session = await door.open(accountId, memberId, userAgent(request), sessionId);
      if (!session) throw used();
      setMemberCookie(door, request, reply, session);
      return { object: 'member_sign_in', redirect: door.landing(member.role) };
    },
  );
}
