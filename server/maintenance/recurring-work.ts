import type { AppContext } from '../context';
import { type RecurringReport, runRecurringWork } from '../domain/plan-runner';
import { type PeriodicJob, startPeriodicJob } from '../lib/periodic-job';

/** First pass a little after start, off the start-up path; then hourly (horizons move by days). */
const FIRST_RUN_DELAY_MS = 30_000;
const INTERVAL_MS = 60 * 60 * 1000;

export type RecurringJob = PeriodicJob<RecurringReport>;

/**
 * The automatic work of service plans (docs/recurring-work.md) in a running server. Each pass does
 * only the businesses this install runs automation for (domain/automation.ts): a standalone install, or
 * the hub of a synced business, so two machines online never both fill the same horizon.
 */
export function startRecurringJob(ctx: AppContext): RecurringJob {
  return startPeriodicJob('recurring work', () => runRecurringWork(ctx), {
    firstDelayMs: FIRST_RUN_DELAY_MS,
    intervalMs: INTERVAL_MS,
    onResult: (report) => {
      for (const failure of report.failed)
        console.error(`recurring work: plan ${failure.plan_id} not updated: ${failure.message}`);
    },
  });
}
