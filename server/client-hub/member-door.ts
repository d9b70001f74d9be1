import type { FastifyReply, FastifyRequest } from 'fastify';
import type { MemberInvitesTable } from '../db/schema';
import type { ClientHubRows } from './rows';

/**
 * What the join, sign-in and sign-out routes need from the server they run on (docs/crew.md):
 * the rows it holds, how it keeps a new session, and where the member's cookie goes. An install
 * keeps sessions in its SQLite and the cookie in its own session cookie; the hosted hub writes
 * rows through its port and uses `sd_member`.
 */
export interface MemberDoor {
  rows: ClientHubRows;
  /**
   * Marks the invitation used and opens its member's session, or null when another request used
   * it first. One transaction on an install; on the hub the hub's writes.
   */
  redeem(invite: MemberInvitesTable, userAgent: string | null): Promise<OpenedSession | null>;
  /**
   * Opens a session with this id for a member who proved who they are (a passkey), or null when a
   * session with this id exists: the id derives from the passkey challenge, so a replay gets null.
   */
  open(
    accountId: string,
    memberId: string,
    userAgent: string | null,
    sessionId: string,
  ): Promise<OpenedSession | null>;
  /** The key passkey challenges are signed with, the same in every process of this server. */
  challengeKey(): Promise<Uint8Array>;
  /** Ends one session (sign-out): revoked_at, which syncs. */
  revoke(accountId: string, sessionId: string): Promise<void>;
  /** The member's session cookie's name. */
  cookieName(request: FastifyRequest): string;
  /** The SameSite of that cookie: the install's own session cookie is Strict, the hub's Lax. */
  sameSite: 'Strict' | 'Lax';
  /** Where a member of this role lands once signed in. */
  landing(role: string): string;
}

export interface OpenedSession {
  token: string;
  expiresAt: string;
}

/** The cookie a member's browser keeps: HttpOnly, Secure when the page came over HTTPS. */
export function setMemberCookie(
  door: MemberDoor,
  request: FastifyRequest,
  reply: FastifyReply,
  session: OpenedSession | null,
): void {
  const https = request.protocol === 'https' || request.headers['x-forwarded-proto'] === 'https';
  const life = session
    ? `Max-Age=${Math.max(0, Math.floor((Date.parse(session.expiresAt) - Date.now()) / 1000))}`
    : 'Max-Age=0';
  const parts = [
    `${door.cookieName(request)}=${session?.token ?? ''}`,
    'Path=/',
    'HttpOnly',
    `SameSite=${door.sameSite}`,
    life,
  ];
  if (https) parts.push('Secure');
  reply.header('Set-Cookie', parts.join('; '));
}

/** The member's session token from the request's cookies, if any. */
export function memberCookie(door: MemberDoor, request: FastifyRequest): string | undefined {
  const name = door.cookieName(request);
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const [key, ...value] = part.trim().split('=');
    if (key === name) return decodeURIComponent(value.join('='));
  }
  return undefined;
}

export function userAgent(request: FastifyRequest): string | null {
  return request.headers['user-agent'] ?? null;
}

/** A POST must come from a page of this very origin: browsers send Origin on every form post and fetch. */
export function sameOrigin(request: FastifyRequest): boolean {
  const origin = request.headers.origin;
  if (!origin) return false;
  try {
    return new URL(origin).host === request.headers.host;
  } catch {
    return false;
  }
}
