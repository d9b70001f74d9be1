import type { AppContext } from '../context';
import { queueDueReminders } from '../domain/reminders';
import { runsAutomation } from '../sync/roles';

/** A first pass soon after start (a machine that was off catches up), then every few minutes. */
const FIRST_RUN_DELAY_MS = 5_000;
const INTERVAL_MS = 5 * 60_000;

export interface ReminderScheduler {
  /** Runs one pass now (after any pass under way); resolves with how many reminders it queued. */
  runNow(): Promise<number>;
  stop(): Promise<void>;
}

/**
 * Queues due reminders into the mail outbox, for every business this install runs the automatic
 * work of (server/sync/roles.ts): a synced business's devices leave it to the hub, so two machines
 * online at once never both queue one. It queues while offline too; the outbox holds the e-mails
 * until the network is back, and the mail worker checks each one again as it leaves.
 */
export function startReminderScheduler(ctx: AppContext): ReminderScheduler {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const pass = async () => {
    let queued = 0;
    const accounts = await ctx.db.selectFrom('accounts').select('id').orderBy('id').execute();
    for (const { id } of accounts) {
      if (stopped) break;
      if (await runsAutomation(ctx.db, id)) queued += await queueDueReminders(ctx, id);
    }
    if (queued) ctx.signals.emit('outbox');
    return queued;
  };
  const runNow = () => {
    const next = running.then(pass);
    running = next.catch(() => undefined);
    return next;
  };
  const tick = () => {
    if (stopped) return;
    runNow().catch((error: unknown) => console.error('reminders: a pass failed', error));
  };
  const first = setTimeout(tick, FIRST_RUN_DELAY_MS);
  const every = setInterval(tick, INTERVAL_MS);
  first.unref();
  every.unref();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
