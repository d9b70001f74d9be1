import type { AppContext } from '../context';
import { runsAutomation } from '../domain/automation';
import { queueDueReminders } from '../domain/reminders';
import { type PeriodicJob, startPeriodicJob } from '../lib/periodic-job';

/** A first pass soon after start (a machine that was off catches up), then every few minutes. */
const FIRST_RUN_DELAY_MS = 5_000;
const INTERVAL_MS = 5 * 60_000;

/** Queues due reminders; `runNow()` resolves with how many it queued. */
export type ReminderScheduler = PeriodicJob<number>;

/**
 * Queues due reminders into the mail outbox, for every business this install runs the automatic
 * work of (server/domain/automation.ts): a synced business's devices leave it to the hub, so two machines
 * online at once never both queue one. It queues while offline too; the outbox holds the e-mails
 * until the network is back, and the mail worker checks each one again as it leaves.
 */
export function startReminderScheduler(ctx: AppContext): ReminderScheduler {
  const pass = async (stopping: () => boolean) => {
    let queued = 0;
    const accounts = await ctx.db.selectFrom('accounts').select('id').orderBy('id').execute();
    for (const { id } of accounts) {
      if (stopping()) break;
      if (await runsAutomation(ctx.db, id)) queued += await queueDueReminders(ctx, id);
    }
    if (queued) ctx.signals.emit('outbox');
    return queued;
  };
  return startPeriodicJob('reminders', pass, { firstDelayMs: FIRST_RUN_DELAY_MS, intervalMs: INTERVAL_MS });
}
