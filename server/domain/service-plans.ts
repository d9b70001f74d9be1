import { sql } from 'kysely';
import { fromCents, toCents } from '../../shared/money';
import {
  describeRule,
  occurrences,
  type RecurrenceRule,
  rruleText,
  shortDate,
  type WeekdayCode,
} from '../../shared/recurrence';
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
import { addDays, dateInZone, startOfDay } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { JobsTable, ServicePlansTable } from '../db/schema';
import { isoNow, toIso } from '../lib/clock';
import { invalidState, notFound, validationError } from '../lib/errors';
import { derivedId, idTime, newId } from '../lib/ids';
import { runsAutomation } from '../sync/roles';
import { getAccount } from './accounts';
import { nextNumber } from './counters';
import { findOrCreateCustomer } from './customers';
import { recordEvent } from './events';
import { insertInvoice, queueInvoiceMail } from './invoices';
import { presentJobs } from './jobs';
import { keysetPage, type Page } from './pagination';
import { activePlaceId, changedWorkPlace, newWorkPlace } from './properties';
import { ensureMembers } from './team';

/**
 * Service plans (docs/recurring-work.md): a rule that keeps a customer's visits on the calendar
 * as ordinary jobs, a horizon ahead. A visit's id is derived from (plan, rule date), so every
 * install that generates it writes the same row; the install that runs automation
 * (sync/roles.ts) extends horizons and makes period invoices, the install where the owner edits
 * a plan brings its visits in line at once.
 */

const json = <T>(text: string): T => JSON.parse(text) as T;

export function ruleOf(row: ServicePlansTable): RecurrenceRule {
  return {
    frequency: row.frequency,
    interval: row.interval,
    weekdays: json<WeekdayCode[]>(row.weekdays),
    month_day: row.month_day,
    start_date: row.start_date,
    start_time: row.start_time,
    end_time: row.end_time,
    until: row.until_date,
    count: row.count,
    holidays: json<string[]>(row.holidays),
    holiday_rule: row.holiday_rule,
  };
}

/** The id of a plan's visit for one rule date: the same on every install. */
export function visitId(planId: string, occurrence: string): string {
  return derivedId('job', idTime(planId) ?? 0, `${planId}:${occurrence}`);
}

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

/** The rule fields of a request, as a rule. */
function ruleFromInput(input: {
  frequency: RecurrenceRule['frequency'];
  interval: number;
  weekdays: WeekdayCode[];
  month_day: number | null;
  start_date: string;
  start_time: string;
  end_time: string;
  until: string | null;
  count: number | null;
  holidays: string[];
  holiday_rule: 'skip' | 'move';
}): RecurrenceRule {
  return {
    frequency: input.frequency,
    interval: input.interval,
    weekdays: input.weekdays,
    month_day: input.month_day,
    start_date: input.start_date,
    start_time: input.start_time,
    end_time: input.end_time,
    until: input.until,
    count: input.count,
    holidays: [...new Set(input.holidays)].sort(),
    holiday_rule: input.holiday_rule,
  };
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
  const today = dateInZone(ctx.clock.now(), config.timezone);
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

interface VisitFields {
  title: string;
  address: string | null;
  property_id: string | null;
  price_cents: number | null;
  notes: string | null;
  scheduled_start: string;
  scheduled_end: string;
}

export interface ReconcileReport {
  created: number;
  updated: number;
  removed: number;
}

/**
 * Brings a plan's future, untouched visits in line with the plan: missing ones up to the horizon
 * are made, changed ones follow the plan, ones the rule no longer has are removed. Visits in the
 * past, under way, finished, cancelled or changed by the owner (plan_detached) are left as they
 * are. Idempotent: a second run with nothing changed writes nothing.
 */
export async function reconcileVisits(
  tx: Tx,
  ctx: AppContext,
  plan: ServicePlansTable,
): Promise<ReconcileReport> {
  const report: ReconcileReport = { created: 0, updated: 0, removed: 0 };
  const { config } = await getAccount(tx, plan.account_id);
  const timeZone = config.timezone;
  const now = isoNow(ctx.clock);
  const today = dateInZone(ctx.clock.now(), timeZone);
  const horizonEnd = addDays(today, plan.horizon_weeks * 7);
  const existing = await tx.selectFrom('jobs').selectAll().where('plan_id', '=', plan.id).execute();
  const untouched = existing.filter(
    (job) =>
      !job.plan_detached &&
      (job.status === 'scheduled' || job.status === 'unscheduled') &&
      job.started_at === null &&
      job.scheduled_start !== null &&
      job.scheduled_start > now,
  );
  const known = new Set(existing.map((job) => job.plan_occurrence));
  const furthest = untouched.reduce(
    (max, job) => (job.plan_occurrence! > max ? job.plan_occurrence! : max),
    horizonEnd,
  );
  const wanted = new Map(
    plan.status === 'active'
      ? occurrences(ruleOf(plan), timeZone, addDays(today, -7), furthest)
          .filter((o) => o.start > now)
          .map((o) => [o.occurrence, o])
      : [],
  );
  const assignees = json<string[]>(plan.assignees);
  const memberIds = assignees.length ? await ensureMembers(tx, ctx, plan.account_id, assignees) : [];
  const fieldsFor = (o: { start: string; end: string }): VisitFields => ({
    title: plan.title,
    address: plan.address,
    property_id: plan.property_id ?? null,
    price_cents: plan.price_cents,
    notes: plan.notes,
    scheduled_start: o.start,
    scheduled_end: o.end,
  });

  for (const job of untouched) {
    const occurrence = wanted.get(job.plan_occurrence!);
    if (!occurrence) {
      await tx.deleteFrom('job_assignees').where('job_id', '=', job.id).execute();
      await tx.deleteFrom('jobs').where('id', '=', job.id).execute();
      report.removed += 1;
      continue;
    }
    const fields = fieldsFor(occurrence);
    const current = await tx
      .selectFrom('job_assignees')
      .select('member_id')
      .where('job_id', '=', job.id)
      .execute();
    const sameTeam =
      current.length === memberIds.length && current.every((a) => memberIds.includes(a.member_id));
    const changed = (Object.keys(fields) as Array<keyof VisitFields>).some((k) => job[k] !== fields[k]);
    if (changed || job.customer_id !== plan.customer_id) {
      await tx
        .updateTable('jobs')
        .set({ ...fields, customer_id: plan.customer_id, status: 'scheduled', updated_at: now })
        .where('id', '=', job.id)
        .execute();
    }
    if (!sameTeam) await setTeam(tx, job.id, memberIds);
    if (changed || !sameTeam) report.updated += 1;
  }

  for (const [date, occurrence] of wanted) {
    if (known.has(date) || date > horizonEnd) continue;
    const id = visitId(plan.id, date);
    const row: JobsTable = {
      id,
      account_id: plan.account_id,
      number: await nextNumber(tx, ctx, plan.account_id, 'job', config.job_prefix),
      customer_id: plan.customer_id,
      status: 'scheduled',
      quote_id: null,
      booking_id: null,
      started_at: null,
      completed_at: null,
      cancelled_at: null,
      created_at: now,
      updated_at: now,
      plan_id: plan.id,
      plan_occurrence: date,
      plan_detached: 0,
      plan_invoice_id: null,
      ...fieldsFor(occurrence),
    };
    await tx.insertInto('jobs').values(row).execute();
    await setTeam(tx, id, memberIds);
    report.created += 1;
  }
  return report;
}

async function setTeam(tx: Tx, jobId: string, memberIds: string[]) {
  await tx.deleteFrom('job_assignees').where('job_id', '=', jobId).execute();
  if (memberIds.length)
    await tx
      .insertInto('job_assignees')
      .values(memberIds.map((member_id) => ({ job_id: jobId, member_id })))
      .execute();
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
    for (const job of visits) {
      await tx.deleteFrom('job_assignees').where('job_id', '=', job.id).execute();
      await tx.deleteFrom('jobs').where('id', '=', job.id).execute();
    }
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
  const today = dateInZone(ctx.clock.now(), config.timezone);
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
