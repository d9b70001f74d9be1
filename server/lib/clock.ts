import { dateInZone } from '../../shared/time-zone';

/** The server's notion of "now". Tests pass their own so limits, schedules and due dates are controllable. */
export interface Clock {
  now(): Date;
  /**
   * Milliseconds from an arbitrary origin that only ever move forward at the pace of real time,
   * whatever is done to the wall clock (performance.now() unless the clock says otherwise).
   */
  monotonicMs?(): number;
  /**
   * Set when this clock is the machine's moved by a constant: a thread that cannot call this object
   * (webhook delivery) then keeps the same time by itself instead of asking for every reading.
   */
  readonly machineOffsetMs?: number;
}

export const systemClock: Clock = {
  now: () => new Date(),
  monotonicMs: () => performance.now(),
  machineOffsetMs: 0,
};

/**
 * The headless server's clock: the machine's, moved by SHOPDESK_CLOCK_OFFSET_MS when set, so a fault
 * campaign (scripts/chaos) runs installs whose clocks are hours off without changing the machine's.
 */
export function clockFromEnvironment(env: Readonly<Record<string, string | undefined>>): Clock {
  const text = env.SHOPDESK_CLOCK_OFFSET_MS;
  if (text === undefined || text === '') return systemClock;
  const offset = Number(text);
  if (!Number.isInteger(offset))
    throw new Error(`SHOPDESK_CLOCK_OFFSET_MS must be whole milliseconds, not ${text}`);
  return {
    now: () => new Date(Date.now() + offset),
    monotonicMs: () => performance.now(),
    machineOffsetMs: offset,
  };
}

/**
 * A clock for waits (outbox leases and retry times): it follows `clock` while that moves forward,
 * and when the wall clock steps back it carries on from where it was at the pace of monotonic time.
 * Without it a delivery due in 10 s would wait two more hours after the clock moved 2 h back.
 */
export function steadyClock(clock: Clock): Clock {
  const elapsed = () => clock.monotonicMs?.() ?? performance.now();
  let last = Number.NEGATIVE_INFINITY;
  let lastElapsed = elapsed();
  return {
    now: () => {
      const at = elapsed();
      last = Math.max(clock.now().getTime(), last + (at - lastElapsed));
      lastElapsed = at;
      return new Date(last);
    },
    monotonicMs: elapsed,
  };
}

/** A clock a test moves by hand: `advance` is time passing, `set` steps the wall clock alone. */
export function manualClock(start: Date | string = '2026-11-22T09:00:00Z'): Clock & {
  set(to: Date | string): void;
  advance(ms: number): void;
} {
  let current = new Date(start).getTime();
  let elapsed = 0;
  return {
    now: () => new Date(current),
    monotonicMs: () => elapsed,
    set: (to) => {
      current = new Date(to).getTime();
    },
    advance: (ms) => {
      current += ms;
      elapsed += ms;
    },
  };
}

/** Today's date where the business is: due dates, validity and reporting days end at its midnight. */
export function todayIn(clock: Clock, timeZone: string): string {
  return dateInZone(clock.now(), timeZone);
}

export function isoNow(clock: Clock): string {
  return clock
    .now()
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}

export function toIso(date: Date): string {
  return date.toISOString().replace(/\.\d{3}Z$/, 'Z');
}
