import { sql } from 'kysely';
import { fromCents, toCents } from '../../shared/money';
import {
  type Job,
  JobCreate,
  type JobListQuery,
  type JobStatus,
  type JobUpdate,
  scheduleProblem,
} from '../../shared/schemas/job';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { JobsTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { nextNumber } from './counters';
import { findOrCreateCustomer } from './customers';
import { type EventOrigin, recordEvent } from './events';
import {
  type OwnerFilters,
  periodInstants,
  type TimeFilters,
  whereOwnerFilters,
  wherePeriod,
  whereTimeFilters,
} from './list-filters';
import { keysetPage, type Page } from './pagination';
import { billCompletedVisit } from './plan-billing';
import { changedWorkPlace, newWorkPlace } from './properties';
import { askForReview } from './review-requests';
import { ensureMembers } from './team';

export type { JobCreate } from '../../shared/schemas/job';

export type JobAction = 'start' | 'complete' | 'cancel';

const OPEN: JobStatus[] = ['unscheduled', 'scheduled', 'in_progress'];

const pastTense: Record<JobAction, string> = { start: 'started', complete: 'completed', cancel: 'cancelled' };

/** Which states each action leaves from (contract part 4); completing a job that was never started is allowed. */
const JOB_TRANSITIONS: Record<JobAction, { from: JobStatus[]; to: JobStatus }> = {
  start: { from: ['unscheduled', 'scheduled'], to: 'in_progress' },
  complete: { from: OPEN, to: 'completed' },
  cancel: { from: OPEN, to: 'cancelled' },
};

/** The status an action moves a job to, or 409 invalid_state when its current status does not allow it. */
export function nextJobStatus(current: JobStatus, action: JobAction): JobStatus {
  const rule = JOB_TRANSITIONS[action];
  if (!rule.from.includes(current)) {
    throw invalidState(`A ${current.replace('_', ' ')} job cannot be ${pastTense[action]}`, {
      status: current,
      allowed_from: rule.from,
    });
  }
  return rule.to;
}

/** Before work begins, the status follows the schedule. */
export function scheduledStatus(scheduledStart: string | null | undefined): 'scheduled' | 'unscheduled' {
  return scheduledStart ? 'scheduled' : 'unscheduled';
}

/** Jobs as the API returns them: customer and assignees loaded in two batched queries. */
export async function presentJobs(db: Queryable, rows: JobsTable[]): Promise<Job[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const [customers, assignees] = await Promise.all([
    db
      .selectFrom('customers')
      .select(['id', 'name', 'email'])
      .where('id', 'in', [...new Set(rows.map((r) => r.customer_id))])
      .execute(),
    db
      .selectFrom('job_assignees as a')
      .innerJoin('team_members as m', 'm.id', 'a.member_id')
      .select(['a.job_id', 'm.name'])
      .where('a.job_id', 'in', ids)
      .orderBy(sql`lower(m.name)`)
      .execute(),
  ]);
  return rows.map((row) => {
    const customer = customers.find((c) => c.id === row.customer_id)!;
    return {
      id: row.id,
      object: 'job' as const,
      job_number: row.number,
      status: row.status,
      customer: { id: customer.id, name: customer.name, email: customer.email },
      title: row.title,
      scheduled_start: row.scheduled_start,
      scheduled_end: row.scheduled_end,
      assignees: assignees.filter((a) => a.job_id === row.id).map((a) => a.name),
      address: row.address,
      property_id: row.property_id ?? null,
      price: row.price_cents === null ? null : fromCents(row.price_cents),
      notes: row.notes,
      quote_id: row.quote_id,
      booking_id: row.booking_id,
      service_plan_id: row.plan_id ?? null,
      occurrence_date: row.plan_occurrence ?? null,
      started_at: row.started_at,
      completed_at: row.completed_at,
      cancelled_at: row.cancelled_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

async function presentJob(db: Queryable, row: JobsTable): Promise<Job> {
  const [job] = await presentJobs(db, [row]);
  return job!;
}

/** A job by its id (job_…) or its number (J-0001); portal paths use numbers, v1 paths ids. */
export async function getJobRow(db: Queryable, accountId: string, idOrNumber: string): Promise<JobsTable> {
  const row = await db
    .selectFrom('jobs')
    .selectAll()
    .where('account_id', '=', accountId)
    .where(idOrNumber.startsWith('job_') ? 'id' : 'number', '=', idOrNumber)
    .executeTakeFirst();
  if (!row) throw notFound(`No job ${idOrNumber}`);
  return row;
}

export async function getJob(
  ctx: AppContext,
  accountId: string,
  idOrNumber: string,
  db: Queryable = ctx.db,
): Promise<Job> {
  return presentJob(db, await getJobRow(db, accountId, idOrNumber));
}

/** A job as a member sees it: `assignedTo` set (the crew), a job they do not work on does not exist for them. */
export async function getJobFor(
  ctx: AppContext,
  accountId: string,
  idOrNumber: string,
  assignedTo: string | null,
): Promise<Job> {
  const row = await getJobRow(ctx.db, accountId, idOrNumber);
  if (assignedTo) {
    const assigned = await ctx.db
      .selectFrom('job_assignees')
      .select('job_id')
      .where('job_id', '=', row.id)
      .where('member_id', '=', assignedTo)
      .executeTakeFirst();
    if (!assigned) throw notFound(`No job ${idOrNumber}`);
  }
  return presentJob(ctx.db, row);
}

async function setAssignees(tx: Tx, ctx: AppContext, accountId: string, jobId: string, names: string[]) {
  await tx.deleteFrom('job_assignees').where('job_id', '=', jobId).execute();
  const memberIds = await ensureMembers(tx, ctx, accountId, names);
  if (memberIds.length) {
    await tx
      .insertInto('job_assignees')
      .values(memberIds.map((memberId) => ({ job_id: jobId, member_id: memberId })))
      .execute();
  }
}

/**
 * Creates a job inside the caller's transaction: quotes call it when an accepted quote is
 * converted, bookings when one is confirmed. The input is validated here too, so a caller that
 * builds it from its own data still gets the contract's 400s.
 */
export async function insertJob(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: JobCreate,
  links: { quoteId?: string; bookingId?: string } = {},
): Promise<Job> {
  const job = JobCreate.parse(input);
  const customer = await findOrCreateCustomer(tx, ctx, accountId, {
    customer_id: job.customer_id,
    email: job.customer_email,
    name: job.customer_name,
  });
  const { config } = await getAccount(tx, accountId);
  const where = await newWorkPlace(tx, accountId, customer, job);
  const now = isoNow(ctx.clock);
  const row: JobsTable = {
    id: newId('job', ctx.clock.now().getTime()),
    account_id: accountId,
    number: await nextNumber(tx, ctx, accountId, 'job', config.job_prefix),
    customer_id: customer.id,
    title: job.title,
    status: scheduledStatus(job.scheduled_start),
    scheduled_start: job.scheduled_start ?? null,
    scheduled_end: job.scheduled_end ?? null,
    // Most jobs happen where the customer lives; null says "no address" on purpose.
    ...where,
    price_cents: job.price == null ? null : toCents(job.price),
    notes: job.notes ?? null,
    quote_id: links.quoteId ?? null,
    booking_id: links.bookingId ?? null,
    started_at: null,
    completed_at: null,
    cancelled_at: null,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto('jobs').values(row).execute();
  await setAssignees(tx, ctx, accountId, row.id, job.assignees ?? []);
  return presentJob(tx, row);
}

export async function createJob(ctx: AppContext, accountId: string, input: JobCreate): Promise<Job> {
  return ctx.db.transaction().execute((tx) => insertJob(tx, ctx, accountId, input));
}

/** `assignedTo`: only the jobs this member works on (a crew member's own list). */
export type JobListFilters = JobListQuery & OwnerFilters & TimeFilters & { assignedTo?: string | null };

export async function listJobs(
  ctx: AppContext,
  accountId: string,
  query: JobListFilters,
): Promise<Page<Job>> {
  const period = await periodInstants(ctx.db, accountId, query);
  return keysetPage(
    query,
    'job',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('jobs as j').selectAll('j').where('j.account_id', '=', accountId);
      if (beforeId) q = q.where('j.id', '<', beforeId);
      if (query.status) q = q.where('j.status', '=', query.status);
      q = wherePeriod(q, 'j.scheduled_start', period);
      q = whereOwnerFilters(q, 'j', query);
      if (query.assignee) {
        const name = query.assignee.toLowerCase();
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('job_assignees as a')
              .innerJoin('team_members as m', 'm.id', 'a.member_id')
              .select('a.job_id')
              .whereRef('a.job_id', '=', 'j.id')
              .where(sql<string>`lower(m.name)`, '=', name),
          ),
        );
      }
      if (query.assignedTo) {
        const memberId = query.assignedTo;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('job_assignees as a')
              .select('a.job_id')
              .whereRef('a.job_id', '=', 'j.id')
              .where('a.member_id', '=', memberId),
          ),
        );
      }
      q = whereTimeFilters(q, 'j', query);
      return q.orderBy('j.id', 'desc').limit(limit).execute();
    },
    (rows) => presentJobs(ctx.db, rows),
  );
}

/** Reschedule, reassign, retitle. Finished jobs (completed, cancelled) are history and stay as they were. */
export async function updateJob(
  ctx: AppContext,
  accountId: string,
  idOrNumber: string,
  patch: JobUpdate,
): Promise<Job> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getJobRow(tx, accountId, idOrNumber);
    if (!OPEN.includes(row.status)) {
      throw invalidState(`Job ${row.number} is ${row.status} and can no longer be changed`, {
        status: row.status,
      });
    }
    const start = patch.scheduled_start === undefined ? row.scheduled_start : patch.scheduled_start;
    // Clearing the start clears the end with it; keeping an end without a start would be meaningless.
    const end =
      patch.scheduled_end !== undefined ? patch.scheduled_end : start === null ? null : row.scheduled_end;
    const problem = scheduleProblem({ scheduled_start: start, scheduled_end: end });
    if (problem) throw validationError(problem, 'scheduled_end');
    const next: JobsTable = {
      ...row,
      ...(await changedWorkPlace(tx, accountId, row, patch)),
      title: patch.title ?? row.title,
      scheduled_start: start,
      scheduled_end: end,
      price_cents:
        patch.price === undefined ? row.price_cents : patch.price === null ? null : toCents(patch.price),
      notes: patch.notes === undefined ? row.notes : patch.notes,
      status: row.status === 'in_progress' ? row.status : scheduledStatus(start),
      updated_at: isoNow(ctx.clock),
      // A plan's visit the owner changed is theirs now: plan edits leave it alone (recurring-work.md).
      ...(row.plan_id ? { plan_detached: 1 } : {}),
    };
    await tx.updateTable('jobs').set(next).where('id', '=', row.id).execute();
    if (patch.assignees) await setAssignees(tx, ctx, accountId, row.id, patch.assignees);
    return presentJob(tx, next);
  });
}

const stampFor: Record<JobAction, 'started_at' | 'completed_at' | 'cancelled_at'> = {
  start: 'started_at',
  complete: 'completed_at',
  cancel: 'cancelled_at',
};

/**
 * Moves a job along its state machine inside the caller's transaction (bookings use it to finish
 * or cancel the job they created); completing emits job.completed with the job as it now is. With
 * an origin (a crew member's action applied by any install) the stamps and the event's id are the
 * action's, so every install applying it writes the same rows.
 */
export async function applyJobAction(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  row: JobsTable,
  action: JobAction,
  origin?: EventOrigin,
): Promise<Job> {
  const now = origin?.at ?? isoNow(ctx.clock);
  const status = nextJobStatus(row.status, action);
  const detach = row.plan_id && action === 'cancel' ? { plan_detached: 1 } : {};
  await tx
    .updateTable('jobs')
    .set({ status, [stampFor[action]]: now, updated_at: now, ...detach })
    .where('id', '=', row.id)
    .execute();
  const next: JobsTable = { ...row, status, [stampFor[action]]: now, updated_at: now, ...detach };
  const job = await presentJob(tx, next);
  if (action === 'complete') {
    await recordEvent(tx, ctx.clock, accountId, 'job.completed', job, origin);
    // A visit of a plan billed per visit gets its invoice now (recurring-work.md).
    if (row.plan_id) await billCompletedVisit(tx, ctx, accountId, next);
    await askForReview(tx, ctx, accountId, next);
  }
  return job;
}

function transition(ctx: AppContext, accountId: string, idOrNumber: string, action: JobAction) {
  return ctx.db
    .transaction()
    .execute(async (tx) =>
      applyJobAction(tx, ctx, accountId, await getJobRow(tx, accountId, idOrNumber), action),
    );
}

/** Keeps an open job on its booking's new time; a job already under way keeps its own schedule. */
export async function rescheduleBookedJob(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  jobId: string,
  schedule: { start: string; end: string },
): Promise<void> {
  const row = await getJobRow(tx, accountId, jobId);
  if (row.status !== 'scheduled' && row.status !== 'unscheduled') return;
  await tx
    .updateTable('jobs')
    .set({
      scheduled_start: schedule.start,
      scheduled_end: schedule.end,
      status: 'scheduled',
      updated_at: isoNow(ctx.clock),
    })
    .where('id', '=', row.id)
    .execute();
}

export const startJob = (ctx: AppContext, accountId: string, idOrNumber: string) =>
  transition(ctx, accountId, idOrNumber, 'start');

/** "Mark complete": sets completed_at and emits job.completed in the same transaction. */
export const completeJob = (ctx: AppContext, accountId: string, idOrNumber: string) =>
  transition(ctx, accountId, idOrNumber, 'complete');

export const cancelJob = (ctx: AppContext, accountId: string, idOrNumber: string) =>
  transition(ctx, accountId, idOrNumber, 'cancel');

/**
 * Deletes a job entered by mistake: only one that never started and that no quote or invoice
 * points to. Anything with a history is cancelled instead, so reports and documents stay whole.
 */
export async function deleteJob(
  ctx: AppContext,
  accountId: string,
  idOrNumber: string,
): Promise<{ id: string; object: 'job'; deleted: true }> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getJobRow(tx, accountId, idOrNumber);
    if (row.plan_id) {
      throw invalidState(
        `Job ${row.number} is a visit of a service plan; cancel it instead (the plan goes on), or end the plan`,
        { service_plan_id: row.plan_id },
      );
    }
    if (row.started_at || !['unscheduled', 'scheduled'].includes(row.status)) {
      throw invalidState(`Job ${row.number} is ${row.status}; cancel it instead of deleting it`, {
        status: row.status,
      });
    }
    const documents = await tx
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('invoices').select('id').where('job_id', '=', row.id)).as('invoice'),
        eb.exists(eb.selectFrom('quotes').select('id').where('job_id', '=', row.id)).as('quote'),
      ])
      .executeTakeFirstOrThrow();
    if (documents.invoice || documents.quote || row.quote_id) {
      throw invalidState(
        `Job ${row.number} is linked to a quote or invoice; cancel it instead of deleting it`,
      );
    }
    await tx.updateTable('bookings').set({ job_id: null }).where('job_id', '=', row.id).execute();
    await tx.updateTable('reviews').set({ job_id: null }).where('job_id', '=', row.id).execute();
    await tx.deleteFrom('job_assignees').where('job_id', '=', row.id).execute();
    await tx.deleteFrom('jobs').where('id', '=', row.id).execute();
    return { id: row.id, object: 'job' as const, deleted: true as const };
  });
}
