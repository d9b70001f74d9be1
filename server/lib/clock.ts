/** The server's notion of "now". Tests pass their own so limits, schedules and due dates are controllable. */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock a test moves by hand. */
export function manualClock(start: Date | string = '2026-11-22T09:00:00Z'): Clock & {
  set(to: Date | string): void;
  advance(ms: number): void;
} {
  let current = new Date(start).getTime();
  return {
    now: () => new Date(current),
    set: (to) => {
      current = new Date(to).getTime();
    },
    advance: (ms) => {
      current += ms;
    },
  };
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
