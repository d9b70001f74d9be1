/** Retry schedules of outbound work (contract part 5). Delays count from the end of the failed attempt. */

const SECOND = 1000;
const MINUTE = 60 * SECOND;

export interface RetrySchedule {
  /** Wait before retry n (index 0 is the wait after the first attempt). */
  retryDelaysMs: readonly number[];
  /** Whether waits are spread by the jitter factor, so many failures do not retry in lockstep. */
  jittered: boolean;
}

/** A factor around 1 applied to jittered waits; tests pass () => 1. */
export type Jitter = () => number;

/** ±10 %. */
export const defaultJitter: Jitter = () => 0.9 + Math.random() * 0.2;

/** Portal webhooks: attempts at 0 s, 10 s and 60 s after the first. */
export const PORTAL_WEBHOOK_SCHEDULE: RetrySchedule = {
  retryDelaysMs: [10 * SECOND, 50 * SECOND],
  jittered: false,
};

/** v1 webhooks: the first attempt, then retries after 1, 4, 16, 64, 256 and 1024 minutes (±10 %). */
export const V1_WEBHOOK_SCHEDULE: RetrySchedule = {
  retryDelaysMs: [1, 4, 16, 64, 256, 1024].map((m) => m * MINUTE),
  jittered: true,
};

/** E-mail: retries after 1, 5, 15, 60 and 240 minutes, then the message is failed. */
export const MAIL_SCHEDULE: RetrySchedule = {
  retryDelaysMs: [1, 5, 15, 60, 240].map((m) => m * MINUTE),
  jittered: false,
};

export function maxAttempts(schedule: RetrySchedule): number {
  return schedule.retryDelaysMs.length + 1;
}

/** How long to wait after the given (1-based) failed attempt, or null when it was the last one. */
export function retryDelayMs(schedule: RetrySchedule, failedAttempt: number, jitter: Jitter): number | null {
  const base = schedule.retryDelaysMs[failedAttempt - 1];
  if (base === undefined) return null;
  return schedule.jittered ? Math.round(base * jitter()) : base;
}
