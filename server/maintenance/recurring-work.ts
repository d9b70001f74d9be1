import type { AppContext } from '../context';
import { type RecurringReport, runRecurringWork } from '../domain/service-plans';

/** First pass a little after start, off the start-up path; then hourly (horizons move by days). */
const FIRST_RUN_DELAY_MS = 30_000;
const INTERVAL_MS = 60 * 60 * 1000;

export interface RecurringJob {
  /** Runs one pass now (after any pass under way): horizons extended, ended months billed. */
  runNow(): Promise<RecurringReport>;
  stop(): Promise<void>;
}

/**
 * The automatic work of service plans (docs/recurring-work.md) in a running server. Each pass does
 * only the businesses this install runs automation for (sync/roles.ts): a standalone install, or
 * the hub of a synced business, so two machines online never both fill the same horizon.
 */
export function startRecurringJob(ctx: AppContext): RecurringJob {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runNow = () => {
    const pass = running.then(() => runRecurringWork(ctx));
    running = pass.catch(() => undefined);
    return pass;
  };
  const tick = () => {
    if (stopped) return;
    runNow().then(
      (report) => {
        for (const failure of report.failed)
          console.error(`recurring work: plan ${failure.plan_id} not updated: ${failure.message}`);
      },
      (error: unknown) => console.error('recurring work: pass failed', error),
    );
  };
  const first = setTimeout(tick, FIRST_RUN_DELAY_MS);
  const hourly = setInterval(tick, INTERVAL_MS);
  first.unref();
  hourly.unref();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(hourly);
      await running;
    },
  };
}
