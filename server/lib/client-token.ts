import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/**
 * Client hub link tokens (docs/client-hub.md, "Model"): `<link id>.<secret>`, the secret 256 random
 * bits. The id makes the lookup one read by key; only the secret's SHA-256 is stored.
 */
export interface ClientToken {
  linkId: string;
  secret: string;
}

const TOKEN = /^(lnk_[0-9a-hjkmnp-tv-z]{26})\.([A-Za-z0-9_-]{43})$/;

export function newClientSecret(): string {
  return randomBytes(32).toString('base64url');
}

export function hashClientSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function parseClientToken(text: string): ClientToken | undefined {
  const match = TOKEN.exec(text);
  return match ? { linkId: match[1]!, secret: match[2]! } : undefined;
}

/** Whether the secret is the one whose hash is stored, in constant time. */
export function secretMatches(secret: string, storedHash: string): boolean {
  const given = Buffer.from(hashClientSecret(secret), 'hex');
  const stored = Buffer.from(storedHash, 'hex');
  return given.length === stored.length && timingSafeEqual(given, stored);
}

/**
 * The per-page form token: bound to the link, keyed by its stored hash, so any hub process checks
 * it without state of its own and a page of another link cannot post here.
 */
export function formToken(linkId: string, storedHash: string): string {
  return createHmac('sha256', storedHash).update(`client-hub-form:${linkId}`).digest('base64url');
}

export function formTokenMatches(given: string, linkId: string, storedHash: string): boolean {
  const expected = Buffer.from(formToken(linkId, storedHash));
  const actual = Buffer.from(given);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
