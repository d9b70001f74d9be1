import { createHash, randomBytes, randomFillSync } from 'node:crypto';

const BASE32 = '0123456789abcdefghjkmnpqrstvwxyz';
const BASE62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';

export type IdPrefix =
  | 'acct'
  | 'key'
  | 'cus'
  | 'note'
  | 'tm'
  | 'job'
  | 'quo'
  | 'inv'
  | 'pay'
  | 'bkg'
  | 'rev'
  | 'whk'
  | 'evt'
  | 'dlv'
  | 'att'
  | 'msg'
  | 'req'
  | 'dev'
  | 'plan'
  | 'prop'
  | 'imp'
  | 'pho'
  | 'rrq'
  | 'lnk'
  | 'act'
  | 'te'
  | 'mss'
  | 'cra'
  | 'jph'
  | 'minv'
  | 'mpk';

let lastTime = 0;
let lastRandom = new Uint8Array(10);

/**
 * Random bytes drawn from the system 4 KB at a time: every request gets an id, and one system call
 * per id was a few percent of a small request's CPU.
 */
const randomPool = new Uint8Array(4096);
let poolOffset = randomPool.length;

function freshRandom(): Uint8Array<ArrayBuffer> {
  if (poolOffset + 10 > randomPool.length) {
    randomFillSync(randomPool);
    poolOffset = 0;
  }
  poolOffset += 10;
  return randomPool.slice(poolOffset - 10, poolOffset);
}

/**
 * Time-sortable id (ULID layout, lower-case Crockford base32): 10 characters of millisecond time
 * then 16 of randomness. Within one millisecond, and while the wall clock is behind the newest id
 * (it was stepped back), the time part stays and the random part is incremented, so ids sort in
 * creation order; keyset pagination and newest-first lists rely on that.
 */
export function newId(prefix: IdPrefix, now: number = Date.now()): string {
  if (now <= lastTime) {
    incrementRandom(lastRandom);
  } else {
    lastTime = now;
    lastRandom = freshRandom();
  }
  return `${prefix}_${encodeTime(lastTime)}${encodeRandom(lastRandom)}`;
}

/**
 * An id every install computes alike (docs/recurring-work.md, "Generated once"): the time part is
 * `timeMs` (never a future instant, so the id generator is not pulled ahead at the next start) and
 * the rest a hash of `key`. Two installs that make the same visit or invoice write the same row,
 * and sync merges them into one.
 */
export function derivedId(prefix: IdPrefix, timeMs: number, key: string): string {
  const digest = createHash('sha256').update(`${prefix}:${key}`).digest();
  return `${prefix}_${encodeTime(timeMs)}${encodeRandom(digest.subarray(0, 10))}`;
}

/** The millisecond time part of an id made by newId or derivedId (null for any other string). */
export function idTime(id: string): number | null {
  return decodeTime(id);
}

/**
 * Makes later ids sort after `id` (one read from the database at open), so a process started while
 * the wall clock is behind the newest record still adds records after it.
 */
export function keepIdsAfter(id: string): void {
  const time = decodeTime(id);
  if (time === null || time < lastTime) return;
  const random = decodeRandom(id);
  // Only ever forward: an older id of the same millisecond must not rewind the generator.
  if (time === lastTime && Buffer.compare(random, lastRandom) <= 0) return;
  lastTime = time;
  lastRandom = random;
}

/**
 * Forgets every id made or seen, as a process that has just started: test files that share a
 * worker process (vitest's isolate: false) each start from there, so a file whose clock ran ahead
 * does not leave the next file's ids in its future (test/helpers/fresh-file.ts).
 */
export function forgetIds(): void {
  lastTime = 0;
  lastRandom = new Uint8Array(10);
}

const ID_BODY = /^[a-z]+_([0-9a-hjkmnp-tv-z]{10})([0-9a-hjkmnp-tv-z]{16})$/;

function decodeTime(id: string): number | null {
  const match = ID_BODY.exec(id);
  if (!match) return null;
  let ms = 0;
  for (const char of match[1]!) ms = ms * 32 + BASE32.indexOf(char);
  return ms;
}

function decodeRandom(id: string): Uint8Array<ArrayBuffer> {
  let bits = 0n;
  for (const char of ID_BODY.exec(id)![2]!) bits = (bits << 5n) | BigInt(BASE32.indexOf(char));
  const bytes = new Uint8Array(10);
  for (let i = 9; i >= 0; i--) {
    bytes[i] = Number(bits & 255n);
    bits >>= 8n;
  }
  return bytes;
}

function encodeTime(ms: number): string {
  let out = '';
  let rest = ms;
  for (let i = 0; i < 10; i++) {
    out = BASE32[rest % 32] + out;
    rest = Math.floor(rest / 32);
  }
  return out;
}

function encodeRandom(bytes: Uint8Array): string {
  let bits = 0n;
  for (const b of bytes) bits = (bits << 8n) | BigInt(b);
  let out = '';
  for (let i = 0; i < 16; i++) {
    out = BASE32[Number(bits & 31n)] + out;
    bits >>= 5n;
  }
  return out;
}

function incrementRandom(bytes: Uint8Array): void {
  for (let i = bytes.length - 1; i >= 0; i--) {
    if (bytes[i]! < 255) {
      bytes[i]! += 1;
      return;
    }
    bytes[i] = 0;
  }
}

/** Random base62 string from a uniform source (rejection sampling keeps every character equally likely). */
export function randomBase62(length: number): string {
  let out = '';
  while (out.length < length) {
    for (const b of randomBytes(length * 2)) {
      if (b < 248 && out.length < length) out += BASE62[b % 62];
    }
  }
  return out;
}
