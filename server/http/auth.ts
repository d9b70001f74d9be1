import type { FastifyRequest } from 'fastify';
import type { Scope } from '../../shared/schemas/api-key';
import type { AppContext } from '../context';
import { type Account, getAccount } from '../domain/accounts';
import { type AuthenticatedKey, authenticateSecret } from '../domain/api-keys';
import {
  authenticateMemberSession,
  INSTALL_OWNER,
  isMemberSessionToken,
  type SignedInMember,
} from '../domain/member-sessions';
import { authenticateSession } from '../domain/sessions';
import { unauthorized } from '../lib/errors';

export interface RequestAuth {
  account: Account;
  /** How the caller proved who they are: a key (portal, v1 or feed token) or the UI's session cookie. */
  via: 'key' | 'session';
  key: AuthenticatedKey | null;
  scopes: Scope[];
  /** The person acting: a team member's own session, or the install's owner (their sign-in link, or a key). */
  member: SignedInMember;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: RequestAuth;
  }
  interface FastifyInstance {
    /** This install's session cookie name (sessionCookieName in session.ts). */
    sessionCookie: string;
  }
}

export function bearerToken(request: FastifyRequest): string | undefined {
  const header = request.headers.authorization;
  if (!header) return undefined;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) {
    throw unauthorized('Send the key as Authorization: Bearer <API_KEY>.');
  }
  return match[1];
}

export function sessionToken(request: FastifyRequest): string | undefined {
  return request.cookies?.[request.server.sessionCookie];
}

export async function authenticateKey(ctx: AppContext, secret: string): Promise<RequestAuth> {
  const { key, account } = await authenticateSecret(ctx, secret);
  return {
    account,
    via: 'key',
    key,
    scopes: key.scopes,
    member: INSTALL_OWNER,
  };
}

export async function authenticateSessionCookie(ctx: AppContext, token: string): Promise<RequestAuth> {
  const signedIn = isMemberSessionToken(token)
    ? await authenticateMemberSession(ctx.db, ctx.clock, token)
    : await ownerSession(ctx, token);
  if (!signedIn) throw unauthorized('Your session has ended. Open a new sign-in link.');
  return {
    account: await getAccount(ctx.db, signedIn.accountId),
    via: 'session',
    key: null,
    scopes: ['read', 'write'],
    member: signedIn.member,
  };
}

async function ownerSession(ctx: AppContext, token: string) {
  const accountId = await authenticateSession(ctx, token);
  return accountId ? { accountId, member: INSTALL_OWNER } : undefined;
}

export const missingCredentials = () => unauthorized('Send an API key as Authorization: Bearer <API_KEY>.');

export function isWrite(method: string): boolean {
  return method !== 'GET' && method !== 'HEAD' && method !== 'OPTIONS';
}
