import { fromCents } from '../../shared/money';
import { shortDate } from '../../shared/recurrence';
import { addDays, dateInZone, startOfDay } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { JobsTable, ServicePlansTable } from '../db/schema';
import { todayIn, toIso } from '../lib/clock';
import { derivedId } from '../lib/ids';
import { getAccount } from './accounts';
import { insertInvoice, queueInvoiceMail } from './invoices';
import { activePlaceId } from './properties';

const dayOf = (iso: string | null, timeZone: string) => (iso ? dateInZone(new Date(iso), timeZone) : null);

/**
 * Per-visit billing: completing a visit of a plan billed per visit makes its invoice in the same
 * transaction, drafted or queued to send (it reads sent only once the e-mail went out). The
 * invoice id is derived from the visit, so a visit completed on two devices is billed once.
 */
export async function billCompletedVisit(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  job: JobsTable,
): Promise<void> {
  if (!job.plan_id || job.plan_invoice_id) return;
  const plan = await tx
    .selectFrom('service_plans')
    .selectAll()
    .where('id', '=', job.plan_id)
    .executeTakeFirst();
  if (plan?.billing !== 'per_visit') return;
  const nowMs = ctx.clock.now().getTime();
  const anchor = Math.min(job.scheduled_start ? Date.parse(job.scheduled_start) : nowMs, nowMs);
  const id = derivedId('inv', anchor, `${job.id}:invoice`);
  const { config } = await getAccount(tx, accountId);
  const day = dayOf(job.scheduled_start, config.timezone);
  const price = job.price_cents ?? plan.price_cents ?? 0;
  await issuePlanInvoice(
    tx,
    ctx,
    accountId,
    plan,
    id,
    [{ description: day ? `${job.title}, ${shortDate(day)}` : job.title, cents: price }],
    `Service plan: ${plan.title} (visit ${job.number}).`,
    { jobId: job.id },
  );
  await tx.updateTable('jobs').set({ plan_invoice_id: id }).where('id', '=', job.id).execute();
}

async function issuePlanInvoice(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  plan: ServicePlansTable,
  id: string,
  lines: Array<{ description: string; cents: number }>,
  notes: string,
  links: { jobId?: string } = {},
): Promise<boolean> {
  const exists = await tx.selectFrom('invoices').select('id').where('id', '=', id).executeTakeFirst();
  if (exists) return false;
  const customer = await tx
    .selectFrom('customers')
    .select(['email', 'name'])
    .where('id', '=', plan.customer_id)
    .executeTakeFirst();
  if (!customer) return false;
  await insertInvoice(
    tx,
    ctx,
    accountId,
    {
      customer_id: plan.customer_id,
      property_id: await activePlaceId(tx, plan.property_id),
      items: lines.map((line) => ({
        description: line.description,
        quantity: 1,
        unit_price: fromCents(line.cents),
      })),
      notes,
    },
    { ...links, id },
  );
  if (plan.invoice_delivery === 'send') {
    const row = await tx.selectFrom('invoices').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
    if (row.total_cents > 0) await queueInvoiceMail(tx, ctx, accountId, row);
  }
  return true;
}

/**
 * Per-period billing, run by the automation: after a calendar month ends (business's zone), one
 * invoice for the plan's completed visits not billed yet that were scheduled before the month's
 * end, with an id derived from (plan, month). A visit completed late (or synced in late) is
 * billed with the next month.
 */
export async function billPlanPeriod(tx: Tx, ctx: AppContext, plan: ServicePlansTable): Promise<boolean> {
  if (plan.billing !== 'per_period') return false;
  const { config } = await getAccount(tx, plan.account_id);
  const today = todayIn(ctx.clock, config.timezone);
  const monthStart = `${today.slice(0, 7)}-01`;
  const period = addDays(monthStart, -1).slice(0, 7);
  const cutoff = startOfDay(monthStart, config.timezone);
  const id = derivedId('inv', cutoff.getTime(), `${plan.id}:period:${period}`);
  const visits = await tx
    .selectFrom('jobs')
    .selectAll()
    .where('plan_id', '=', plan.id)
    .where('status', '=', 'completed')
    .where('plan_invoice_id', 'is', null)
    .where('scheduled_start', '<', toIso(cutoff))
    .orderBy('scheduled_start')
    .execute();
  if (visits.length === 0) return false;
  const year = period.slice(0, 4);
  const monthName = shortDate(`${period}-01`).split(' ')[1];
  const made = await issuePlanInvoice(
    tx,
    ctx,
    plan.account_id,
    plan,
    id,
    visits.map((job) => ({
      description: `${job.title}, ${shortDate(dayOf(job.scheduled_start, config.timezone)!)}`,
      cents: job.price_cents ?? plan.price_cents ?? 0,
    })),
    `Service plan: ${plan.title}, ${monthName} ${year} (${visits.length} visit${visits.length === 1 ? '' : 's'}).`,
  );
  if (!made) return false;
  await tx
    .updateTable('jobs')
    .set({ plan_invoice_id: id })
    .where(
      'id',
      'in',
      visits.map((v) => v.id),
    )
    .execute();
  return true;
}
