/** How long a passkey ceremony may take between its options and its answer. */
const CHALLENGE_MS = 5 * 60_000;

/**
 * The challenges this process handed out, each good once for its purpose and for five minutes,
 * so a recorded answer cannot be replayed. Kept in memory: a hub running several processes must
 * send a ceremony's two requests to the same one (docs/crew.md, "Passkeys").
 */
export class Challenges {
  private readonly issued = new Map<string, { purpose: string; until: number }>();

  constructor(private readonly now: () => number) {}

  keep(challenge: string, purpose: string): void {
    const now = this.now();
    for (const [key, value] of this.issued) if (value.until <= now) this.issued.delete(key);
    this.issued.set(challenge, { purpose, until: now + CHALLENGE_MS });
  }

  /** Whether the challenge was issued for this purpose and is still good; it is used up either way. */
  take(challenge: string, purpose: string): boolean {
    const found = this.issued.get(challenge);
    this.issued.delete(challenge);
    return Boolean(found && found.purpose === purpose && found.until > this.now());
  }
}
