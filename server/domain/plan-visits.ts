import { occurrences, type RecurrenceRule, type WeekdayCode } from '../../shared/recurrence';
import { addDays } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { JobsTable, ServicePlansTable } from '../db/schema';
import { isoNow, todayIn } from '../lib/clock';
import { derivedId, idTime } from '../lib/ids';
import { getAccount } from './accounts';
import { nextNumber } from './counters';
import { ensureMembers } from './team';

/**
 * A service plan's visits (docs/recurring-work.md): ordinary jobs kept on the calendar a horizon
 * ahead. A visit's id is derived from (plan, rule date), so every install that generates it
 * writes the same row.
 */

export const json = <T>(text: string): T => JSON.parse(text) as T;

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

/** The rule fields of a request, as a rule. */
export function ruleFromInput(input: {
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
  const today = todayIn(ctx.clock, timeZone);
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
      await removeVisit(tx, job.id);
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

/** Removes a visit that has no history yet, with its team. */
export async function removeVisit(tx: Tx, jobId: string): Promise<void> {
  await tx.deleteFrom('job_assignees').where('job_id', '=', jobId).execute();
  await tx.deleteFrom('jobs').where('id', '=', jobId).execute();
}
