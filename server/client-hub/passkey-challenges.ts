import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** How long a passkey ceremony may take between its options and its answer. */
const CHALLENGE_MS = 5 * 60_000;

/**
 * Passkey challenges that hold no state in the process (docs/crew-design.md, "Passkeys"): each is
 * `<purpose>|<issued ms>|<nonce>|<HMAC of the rest>` under a key every process of the server shares
 * (the hosted hub's is kept in its database), so a ceremony's two requests may reach different
 * processes. The answer's signature covers the challenge, so neither the purpose nor the time can
 * be changed. It is used once because what it makes (the session, the passkey row) takes an id
 * derived from it: a replayed answer finds that row already there (passkey-routes.ts).
 */
export function issueChallenge(key: Uint8Array, purpose: string, nowMs: number): Uint8Array<ArrayBuffer> {
  const body = `${purpose}|${nowMs}|${randomBytes(16).toString('base64url')}`;
  return new TextEncoder().encode(`${body}|${mac(key, body)}`);
}

/** The challenge's issue time when this server issued it for this purpose less than five minutes ago. */
export function checkChallenge(
  key: Uint8Array,
  challenge: string,
  purpose: string,
  nowMs: number,
): number | null {
  const text = Buffer.from(challenge, 'base64url').toString('utf8');
  const at = text.lastIndexOf('|');
  if (at < 0) return null;
  const body = text.slice(0, at);
  const given = Buffer.from(text.slice(at + 1));
  const expected = Buffer.from(mac(key, body));
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return null;
  const [issuedPurpose, issuedText] = body.split('|');
  const issued = Number(issuedText);
  if (issuedPurpose !== purpose || !Number.isSafeInteger(issued)) return null;
  return issued <= nowMs && nowMs - issued < CHALLENGE_MS ? issued : null;
}

function mac(key: Uint8Array, body: string): string {
  return createHmac('sha256', key).update(`passkey-challenge:${body}`).digest('base64url');
}
