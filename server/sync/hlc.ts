/**
 * Hybrid logical clock (Kulkarni et al.), as Actual Budget uses it: wall-clock milliseconds, a
 * counter for events within one millisecond or while the wall clock lags the last seen time, and
 * the node id for a total order. Encoded as fixed-width text so clocks compare as strings, in
 * SQLite and PostgreSQL alike.
 */
export interface HlcState {
  ms: number;
  counter: number;
}

const MS_WIDTH = 15;
const COUNTER_WIDTH = 10;

export function formatHlc(state: HlcState, node: string): string {
  return `${String(state.ms).padStart(MS_WIDTH, '0')}.${String(state.counter).padStart(COUNTER_WIDTH, '0')}.${node}`;
}

export function parseHlc(text: string): HlcState | undefined {
  const [ms, counter] = text.split('.');
  if (!ms || !counter) return undefined;
  return { ms: Number(ms), counter: Number(counter) };
}

export class Hlc {
  private state: HlcState = { ms: 0, counter: 0 };

  constructor(
    public node: string,
    last = '',
  ) {
    this.observe(last);
  }

  /** The clock of a local change made at wall time `now` (already corrected by the hub offset). */
  tick(now: number): string {
    if (now > this.state.ms) this.state = { ms: now, counter: 0 };
    else this.state = { ms: this.state.ms, counter: this.state.counter + 1 };
    return formatHlc(this.state, this.node);
  }

  /**
   * Moves past a clock seen from elsewhere, so a later local change orders after it even when
   * this machine's clock is behind. A device is never refused for its clock: skew only delays.
   */
  observe(remote: string): void {
    const parsed = parseHlc(remote);
    if (!parsed) return;
    if (parsed.ms > this.state.ms || (parsed.ms === this.state.ms && parsed.counter > this.state.counter)) {
      this.state = parsed;
    }
  }

  last(): string {
    return formatHlc(this.state, this.node);
  }
}
