import type { Clock } from '../../lib/clock';
import { rateLimited } from '../../lib/errors';

export const PAIRING_FAILURE_WINDOW_MS = 15 * 60_000;
/** Wrong codes one address may send in a window. */
export const PAIRING_FAILURES_PER_ADDRESS = 10;
/**
 * Wrong codes from all addresses together in a window: guessing from many addresses at once stays
 * slow, while one address sending wrong codes cannot stop everyone else from pairing.
 */
export const PAIRING_FAILURES_OVERALL = 100;

const OVERALL = '*';

/**
 * Wrong pairing codes counted in fixed windows of 15 minutes, per source address and overall
 * (docs/sync.md, "Security"). Only failures count; once either count is full, every join from there
 * (a right code too) is 429 until the window ends, so guessing gains nothing from trying more.
 * Kept in memory: a hosted hub's processes each count on their own.
 */
export class PairingAttempts {
  private windowStart = 0;
  private readonly failures = new Map<string, number>();

  constructor(private readonly clock: Clock) {}

  /** Throws 429 with Retry-After while `address`, or the hub as a whole, has used its failures. */
  check(address: string): void {
    this.roll();
    const full =
      (this.failures.get(address) ?? 0) >= PAIRING_FAILURES_PER_ADDRESS ||
      (this.failures.get(OVERALL) ?? 0) >= PAIRING_FAILURES_OVERALL;
    if (!full) return;
    const seconds = Math.max(
      1,
      Math.ceil((this.windowStart + PAIRING_FAILURE_WINDOW_MS - this.clock.now().getTime()) / 1000),
    );
    throw rateLimited(
      `Too many wrong pairing codes: try again in ${Math.ceil(seconds / 60)} minutes.`,
      seconds,
    );
  }

  failed(address: string): void {
    this.roll();
    for (const key of [address, OVERALL]) this.failures.set(key, (this.failures.get(key) ?? 0) + 1);
  }

  /** A new window forgets every count, so the map never holds more than one window's addresses. */
  private roll(): void {
    const now = this.clock.now().getTime();
    const start = Math.floor(now / PAIRING_FAILURE_WINDOW_MS) * PAIRING_FAILURE_WINDOW_MS;
    if (start <= this.windowStart) return;
    this.windowStart = start;
    this.failures.clear();
  }
}
