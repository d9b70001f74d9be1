import { sql } from 'kysely';
import { fromCents, toCents } from '../../shared/money';
import { describeRule, occurrences, rruleText } from '../../shared/recurrence';
import type { Job } from '../../shared/schemas/job';
import {
  type PlanRuleInput,
  planProblems,
  type ServicePlan,
  ServicePlanCreate,
  type ServicePlanListQuery,
  type ServicePlanPreview,
  type ServicePlanUpdate,
} from '../../shared/schemas/service-plan';
import { addDays } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import type { ServicePlansTable } from '../db/schema';
import { isoNow, todayIn } from '../lib/clock';
import { invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { findOrCreateCustomer } from './customers';
import { recordEvent } from './events';
import { presentJobs } from './jobs';
import { keysetPage, type Page } from './pagination';
import { json, reconcileVisits, removeVisit, ruleFromInput, ruleOf } from './plan-visits';
import { changedWorkPlace, newWorkPlace } from './properties';

/**
 * Service plans (docs/recurring-work.md): a rule that keeps a customer's visits on the calendar
 * as ordinary jobs, a horizon ahead. A visit's id is derived from (plan, rule date), so every
 * install that generates it writes the same row (plan-visits.ts); the install that runs automation
 * (automation.ts) extends horizons (plan-runner.ts) and bills (plan-billing.ts) and makes period invoices, the install where the owner edits
 * a plan brings its visits in line at once.
 */

async function presentPlans(
  db: Queryable,
  ctx: AppContext,
  rows: ServicePlansTable[],
  timeZone: string,
): Promise<ServicePlan[]> {
  if (rows.length === 0) return [];
  const now = isoNow(ctx.clock);
  const [customers, next] = await Promise.all([
    db
      .selectFrom('customers')
      .select(['id', 'name', 'email'])
      .where('id', 'in', [...new Set(rows.map((r) => r.customer_id))])
      .execute(),
    db
      .selectFrom('jobs')
      .select(['plan_id', sql<string>`min(scheduled_start)`.as('next')])
      .where(
        'plan_id',
        'in',
        rows.map((r) => r.id),
      )
      .where('status', 'in', ['scheduled', 'in_progress'])
      .where('scheduled_start', '>=', now)
      .groupBy('plan_id')
      .execute(),
  ]);
  return rows.map((row) => {
    const rule = ruleOf(row);
    const customer = customers.find((c) => c.id === row.customer_id);
    return {
      id: row.id,
      object: 'service_plan' as const,
      status: row.status,
      customer: customer
        ? { id: customer.id, name: customer.name, email: customer.email }
        : { id: row.customer_id, name: '', email: '' },
      title: row.title,
      address: row.address,
      property_id: row.property_id ?? null,
      price: row.price_cents === null ? null : fromCents(row.price_cents),
      notes: row.notes,
      assignees: json<string[]>(row.assignees),
      billing: row.billing,
      invoice_delivery: row.invoice_delivery,
      frequency: row.frequency,
      interval: row.interval,
      weekdays: [...rule.weekdays],
      month_day: row.month_day,
      start_date: row.start_date,
      start_time: row.start_time,
      end_time: row.end_time,
      until: row.until_date,
      count: row.count,
      horizon_weeks: row.horizon_weeks,
      holidays: [...rule.holidays],
      holiday_rule: row.holiday_rule,
      summary: describeRule(rule),
      rrule: rruleText(rule),
      time_zone: timeZone,
      next_visit: next.find((n) => n.plan_id === row.id)?.next ?? null,
      ended_at: row.ended_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

async function presentPlan(db: Queryable, ctx: AppContext, row: ServicePlansTable): Promise<ServicePlan> {
  const { config } = await getAccount(db, row.account_id);
  const [plan] = await presentPlans(db, ctx, [row], config.timezone);
  return plan!;
}

async function getPlanRow(db: Queryable, accountId: string, id: string): Promise<ServicePlansTable> {
  const row = await db
    .selectFrom('service_plans')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No service plan ${id}`);
  return row;
}

export async function getPlan(ctx: AppContext, accountId: string, id: string): Promise<ServicePlan> {
  return presentPlan(ctx.db, ctx, await getPlanRow(ctx.db, accountId, id));
}

export async function listPlans(
  ctx: AppContext,
  accountId: string,
  query: ServicePlanListQuery,
): Promise<Page<ServicePlan>> {
  const { config } = await getAccount(ctx.db, accountId);
  return keysetPage(
    query,
    'plan',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('service_plans as p').selectAll('p').where('p.account_id', '=', accountId);
      if (beforeId) q = q.where('p.id', '<', beforeId);
      if (query.status) q = q.where('p.status', '=', query.status);
      if (query.customer_email) {
        const email = query.customer_email.toLowerCase();
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('customers as c')
              .select('c.id')
              .whereRef('c.id', '=', 'p.customer_id')
              .where('c.email_lower', '=', email),
          ),
        );
      }
      return q.orderBy('p.id', 'desc').limit(limit).execute();
    },
    (rows) => presentPlans(ctx.db, ctx, rows, config.timezone),
  );
}

/** The next visits a rule would make from today (or its start date), before anything is saved. */
export async function previewPlan(
  ctx: AppContext,
  accountId: string,
  input: Required<Omit<PlanRuleInput, 'horizon_weeks'>> & { visits: number },
): Promise<ServicePlanPreview> {
  const { config } = await getAccount(ctx.db, accountId);
  const rule = ruleFromInput(input);
  const now = isoNow(ctx.clock);
  const today = todayIn(ctx.clock, config.timezone);
  const from = rule.start_date > today ? rule.start_date : today;
  const visits = [];
  // Widen the window until enough visits are found (a monthly rule on the 31st is sparse).
  for (let days = 120; visits.length < input.visits && days <= 120 * 32; days *= 2) {
    visits.length = 0;
    for (const o of occurrences(rule, config.timezone, from, addDays(from, days))) {
      if (o.start <= now) continue;
      visits.push(o);
      if (visits.length === input.visits) break;
    }
    if (rule.until && addDays(from, days) >= rule.until) break;
  }
  return { summary: describeRule(rule), rrule: rruleText(rule), time_zone: config.timezone, visits };
}

function checkPlan(value: Parameters<typeof planProblems>[0]) {
  const [problem] = planProblems(value);
  if (problem) throw validationError(problem.message, problem.path);
}

export async function createPlan(
  ctx: AppContext,
  accountId: string,
  body: ServicePlanCreate,
): Promise<ServicePlan> {
  const input = ServicePlanCreate.parse(body);
  return ctx.db.transaction().execute(async (tx) => {
    const customer = await findOrCreateCustomer(tx, ctx, accountId, {
      customer_id: input.customer_id,
      email: input.customer_email,
      name: input.customer_name,
    });
    const rule = ruleFromInput(input);
    const now = isoNow(ctx.clock);
    const row: ServicePlansTable = {
      id: newId('plan', ctx.clock.now().getTime()),
      account_id: accountId,
      customer_id: customer.id,
      title: input.title,
      ...(await newWorkPlace(tx, accountId, customer, input)),
      price_cents: input.price == null ? null : toCents(input.price),
      notes: input.notes ?? null,
      assignees: JSON.stringify(input.assignees),
      frequency: rule.frequency,
      interval: rule.interval,
      weekdays: JSON.stringify(rule.weekdays),
      month_day: rule.month_day,
      start_date: rule.start_date,
      start_time: rule.start_time,
      end_time: rule.end_time,
      until_date: rule.until,
      count: rule.count,
      horizon_weeks: input.horizon_weeks,
      holidays: JSON.stringify(rule.holidays),
      holiday_rule: rule.holiday_rule,
      billing: input.billing,
      invoice_delivery: input.invoice_delivery,
      status: 'active',
      ended_at: null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('service_plans').values(row).execute();
    await reconcileVisits(tx, ctx, row);
    const plan = await presentPlan(tx, ctx, row);
    await recordEvent(tx, ctx.clock, accountId, 'service_plan.created', plan);
    return plan;
  });
}

/**
 * Changes a plan. Visits already made, finished, under way or changed by the owner stay as they
 * are; future untouched visits follow the new plan at once (the series "from now on").
 */
export async function updatePlan(
  ctx: AppContext,
  accountId: string,
  id: string,
  patch: ServicePlanUpdate,
): Promise<ServicePlan> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getPlanRow(tx, accountId, id);
    if (row.status === 'ended')
      throw invalidState(`Service plan ${row.title} has ended and cannot be changed.`);
    const rule = ruleOf(row);
    const merged = {
      frequency: patch.frequency ?? rule.frequency,
      interval: patch.interval ?? rule.interval,
      weekdays: patch.weekdays ?? [...rule.weekdays],
      month_day: patch.month_day !== undefined ? patch.month_day : rule.month_day,
      start_date: patch.start_date ?? rule.start_date,
      start_time: patch.start_time ?? rule.start_time,
      end_time: patch.end_time ?? rule.end_time,
      until: patch.until !== undefined ? patch.until : rule.until,
      count: patch.count !== undefined ? patch.count : rule.count,
      holidays: patch.holidays ?? [...rule.holidays],
      holiday_rule: patch.holiday_rule ?? rule.holiday_rule,
    };
    // Switching between weekly and monthly drops the other kind's field unless it was sent.
    if (patch.frequency === 'monthly' && patch.weekdays === undefined) merged.weekdays = [];
    if (patch.frequency && patch.frequency !== 'monthly' && patch.month_day === undefined)
      merged.month_day = null;
    if (patch.until != null && patch.count === undefined) merged.count = null;
    if (patch.count != null && patch.until === undefined) merged.until = null;
    const price =
      patch.price !== undefined ? patch.price : row.price_cents === null ? null : fromCents(row.price_cents);
    checkPlan({ ...merged, billing: patch.billing ?? row.billing, price });
    const next = ruleFromInput(merged);
    const updated: ServicePlansTable = {
      ...row,
      title: patch.title ?? row.title,
      ...(await changedWorkPlace(tx, accountId, row, patch)),
      price_cents: price === null ? null : toCents(price),
      notes: patch.notes !== undefined ? patch.notes : row.notes,
      assignees: patch.assignees ? JSON.stringify(patch.assignees) : row.assignees,
      frequency: next.frequency,
      interval: next.interval,
      weekdays: JSON.stringify(next.weekdays),
      month_day: next.month_day,
      start_date: next.start_date,
      start_time: next.start_time,
      end_time: next.end_time,
      until_date: next.until,
      count: next.count,
      horizon_weeks: patch.horizon_weeks ?? row.horizon_weeks,
      holidays: JSON.stringify(next.holidays),
      holiday_rule: next.holiday_rule,
      billing: patch.billing ?? row.billing,
      invoice_delivery: patch.invoice_delivery ?? row.invoice_delivery,
      updated_at: isoNow(ctx.clock),
    };
    // Only changed columns are written, so a concurrent edit of another field on another device survives.
    const changes = Object.fromEntries(
      Object.entries(updated).filter(
        ([k, v]) => k !== 'updated_at' && row[k as keyof ServicePlansTable] !== v,
      ),
    );
    // A patch that changes nothing is answered with the plan as it is: no write, no event.
    if (Object.keys(changes).length === 0) return presentPlan(tx, ctx, row);
    changes.updated_at = updated.updated_at;
    await tx.updateTable('service_plans').set(changes).where('id', '=', row.id).execute();
    await reconcileVisits(tx, ctx, updated);
    const plan = await presentPlan(tx, ctx, updated);
    await recordEvent(tx, ctx.clock, accountId, 'service_plan.updated', plan);
    return plan;
  });
}

/** Ends a plan: no more visits are made, future untouched ones are removed; history stays. */
export async function endPlan(ctx: AppContext, accountId: string, id: string): Promise<ServicePlan> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getPlanRow(tx, accountId, id);
    if (row.status === 'ended') throw invalidState(`Service plan ${row.title} has already ended.`);
    const now = isoNow(ctx.clock);
    const ended: ServicePlansTable = { ...row, status: 'ended', ended_at: now, updated_at: now };
    await tx
      .updateTable('service_plans')
      .set({ status: 'ended', ended_at: now, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    await reconcileVisits(tx, ctx, ended);
    const plan = await presentPlan(tx, ctx, ended);
    await recordEvent(tx, ctx.clock, accountId, 'service_plan.ended', plan);
    return plan;
  });
}

/**
 * Deletes a plan made by mistake: only while none of its visits has a history (all still ahead
 * and untouched); they go with it. A plan with a history is ended instead.
 */
export async function deletePlan(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<{ id: string; object: 'service_plan'; deleted: true }> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getPlanRow(tx, accountId, id);
    const now = isoNow(ctx.clock);
    const visits = await tx.selectFrom('jobs').selectAll().where('plan_id', '=', row.id).execute();
    const history = visits.filter(
      (job) =>
        job.plan_detached ||
        job.status !== 'scheduled' ||
        job.started_at !== null ||
        job.plan_invoice_id !== null ||
        (job.scheduled_start ?? '') <= now,
    );
    if (history.length) {
      throw invalidState(
        `Service plan ${row.title} has ${history.length} visit${history.length === 1 ? '' : 's'} with a history; end it instead of deleting it.`,
        { visits: history.length },
      );
    }
    for (const job of visits) await removeVisit(tx, job.id);
    await tx.deleteFrom('service_plans').where('id', '=', row.id).execute();
    await recordEvent(tx, ctx.clock, accountId, 'service_plan.deleted', {
      id: row.id,
      object: 'service_plan',
      deleted: true,
    });
    return { id: row.id, object: 'service_plan' as const, deleted: true as const };
  });
}

/** A plan's visits: upcoming in start order, or past newest first. */
export async function listPlanVisits(
  ctx: AppContext,
  accountId: string,
  id: string,
  query: { when: 'upcoming' | 'past' | 'all'; limit: number },
): Promise<{ data: Job[] }> {
  const plan = await getPlanRow(ctx.db, accountId, id);
  const now = isoNow(ctx.clock);
  let q = ctx.db.selectFrom('jobs').selectAll().where('plan_id', '=', plan.id);
  if (query.when === 'upcoming') q = q.where('scheduled_start', '>=', now).orderBy('scheduled_start', 'asc');
  else if (query.when === 'past') q = q.where('scheduled_start', '<', now).orderBy('scheduled_start', 'desc');
  else q = q.orderBy('scheduled_start', 'asc');
  const rows = await q.orderBy('id').limit(query.limit).execute();
  return { data: await presentJobs(ctx.db, rows) };
}
