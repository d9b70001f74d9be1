import { createHash, timingSafeEqual } from 'node:crypto';
import { randomBase62 } from './ids';

export const SECRET_PREFIXES = {
  portal: 'sd_portal_',
  live: 'sd_live_',
  test: 'sd_test_',
  feed: 'sd_feed_',
  webhook: 'whsec_',
  signIn: 'sd_signin_',
  session: 'sd_session_',
  syncDevice: 'sd_sync_',
} as const;

export function newSecret(prefix: string): string {
  return prefix + randomBase62(32);
}

/** Secrets are stored only as SHA-256 hashes: they are long random strings, so no salt or stretching is needed. */
export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
