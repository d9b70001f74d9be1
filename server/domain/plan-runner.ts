import type { AppContext } from '../context';
import { runsAutomation } from './automation';
import { billPlanPeriod } from './plan-billing';
import { reconcileVisits } from './plan-visits';

export interface RecurringReport {
  plans: number;
  visits_created: number;
  visits_updated: number;
  visits_removed: number;
  invoices_created: number;
  /** Plans the pass could not bring up to date, and why. */
  failed: Array<{ plan_id: string; message: string }>;
}

/**
 * The automatic work of recurring plans, for every business this install runs automation for:
 * extend each active plan's visits to its horizon and bill ended periods. Each plan is one short
 * transaction. Idempotent: running it twice in a row makes nothing the second time.
 */
export async function runRecurringWork(ctx: AppContext): Promise<RecurringReport> {
  const report: RecurringReport = {
    plans: 0,
    visits_created: 0,
    visits_updated: 0,
    visits_removed: 0,
    invoices_created: 0,
    failed: [],
  };
  const accounts = await ctx.db.selectFrom('service_plans').select('account_id').distinct().execute();
  for (const { account_id: accountId } of accounts) {
    if (!(await runsAutomation(ctx.db, accountId))) continue;
    const plans = await ctx.db
      .selectFrom('service_plans')
      .select('id')
      .where('account_id', '=', accountId)
      .orderBy('id')
      .execute();
    for (const { id } of plans) {
      // One plan that cannot be brought up to date (a team member since deactivated) must not
      // hold up the others: it is reported and tried again at the next pass.
      await ctx.db
        .transaction()
        .execute(async (tx) => {
          const plan = await tx
            .selectFrom('service_plans')
            .selectAll()
            .where('id', '=', id)
            .executeTakeFirst();
          if (!plan) return;
          report.plans += 1;
          if (plan.status === 'active') {
            const visits = await reconcileVisits(tx, ctx, plan);
            report.visits_created += visits.created;
            report.visits_updated += visits.updated;
            report.visits_removed += visits.removed;
          }
          if (await billPlanPeriod(tx, ctx, plan)) report.invoices_created += 1;
        })
        .catch((error: unknown) => {
          report.failed.push({ plan_id: id, message: (error as Error).message });
        });
    }
  }
  return report;
}
