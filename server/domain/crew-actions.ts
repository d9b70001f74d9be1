import { CrewCompletePayload } from '../../shared/schemas/crew';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { JobsTable } from '../db/schema';
import type { CrewActionsTable } from '../db/schema-hours';
import { memberActor, runAs } from '../lib/actor';
import { isoNow } from '../lib/clock';
import { invalidState, notFound } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { readStoredConfig } from './accounts';
import { actionRefusal, applyPendingActions } from './client-actions';
import type { EventOrigin } from './events';
import { applyJobAction } from './jobs';
import { queueMail } from './mail';
import { clockInIn, clockOutIn, openEntry } from './time-entries';

/**
 * Applies what crew members did on their phones (docs/crew.md, "The phone"), like the client
 * hub's applier (client-actions.ts): one transaction per action through the jobs and hours domain,
 * marked applied or refused. Each member's actions go in the order they were done; every effect's
 * id and time derive from the action, so installs applying it while apart write the same rows
 * (docs/sync.md, invariant 12b): job.completed fires once, the plan bills the visit once.
 */
export async function applyCrewActions(ctx: AppContext, accountId: string): Promise<number> {
  const pending = await ctx.db
    .selectFrom('crew_actions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'pending')
    .orderBy('done_at')
    .orderBy('id')
    .execute();
  // The member's action is theirs, wherever it is applied.
  for (const action of pending) await runAs(memberActor(action.member_id), () => applyOne(ctx, action));
  return pending.length;
}

async function applyOne(ctx: AppContext, action: CrewActionsTable): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (!(await stillPending(tx, action.id))) return;
      await settle(tx, ctx, action.id, 'applied', await dispatch(tx, ctx, action));
    });
  } catch (error) {
    const refusal = actionRefusal(error);
    if (refusal === null) throw error;
    await ctx.db.transaction().execute(async (tx) => {
      if (await stillPending(tx, action.id)) await settle(tx, ctx, action.id, 'refused', refusal);
    });
  }
}

async function stillPending(tx: Tx, id: string): Promise<boolean> {
  const row = await tx.selectFrom('crew_actions').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status === 'pending';
}

async function settle(tx: Tx, ctx: AppContext, id: string, status: 'applied' | 'refused', outcome: string) {
  await tx
    .updateTable('crew_actions')
    .set({ status, outcome, applied_at: isoNow(ctx.clock) })
    .where('id', '=', id)
    .execute();
}

function actionTime(action: CrewActionsTable): number {
  return idTime(action.id) ?? Date.parse(action.done_at);
}

function origin(action: CrewActionsTable): EventOrigin {
  return { id: derivedId('evt', actionTime(action), action.id), at: action.done_at };
}

async function dispatch(tx: Tx, ctx: AppContext, action: CrewActionsTable): Promise<string> {
  switch (action.kind) {
    case 'clock_in': {
      const job = action.job_id ? await assignedJob(tx, action) : null;
      await clockInIn(
        tx,
        ctx,
        action.account_id,
        { member_id: action.member_id, job_id: job?.id ?? null },
        { id: derivedId('te', actionTime(action), action.id), at: action.done_at },
      );
      return 'Clocked in.';
    }
    case 'clock_out': {
      const open = await openEntry(tx, action.account_id, action.member_id);
      if (!open) throw invalidState('You were not clocked in.');
      await clockOutIn(tx, ctx, action.account_id, open.id, action.done_at);
      return 'Clocked out.';
    }
    case 'on_my_way':
      return onMyWay(tx, ctx, action, await assignedJob(tx, action));
    case 'start': {
      const job = await assignedJob(tx, action);
      if (job.status === 'in_progress') return 'Already started.';
      await applyJobAction(tx, ctx, action.account_id, job, 'start', origin(action));
      return 'Started.';
    }
    case 'complete': {
      CrewCompletePayload.parse(JSON.parse(action.payload));
      const job = await assignedJob(tx, action);
      if (job.status === 'completed') return 'Already completed.';
      await applyJobAction(tx, ctx, action.account_id, job, 'complete', origin(action));
      return 'Completed.';
    }
    default:
      throw invalidState(`Unknown action ${String(action.kind)}`);
  }
}

/** A member acts only on visits assigned to them: anything else is refused like a missing visit. */
async function assignedJob(tx: Tx, action: CrewActionsTable): Promise<JobsTable> {
  const job = await tx
    .selectFrom('jobs')
    .innerJoin('job_assignees', 'job_assignees.job_id', 'jobs.id')
    .selectAll('jobs')
    .where('jobs.account_id', '=', action.account_id)
    .where('jobs.id', '=', action.job_id ?? '')
    .where('job_assignees.member_id', '=', action.member_id)
    .executeTakeFirst();
  if (!job) throw notFound('This visit is not assigned to you.');
  if (job.status === 'cancelled') throw invalidState('This visit was cancelled.');
  return job;
}

/** The customer's e-mail with the expected arrival, when the owner turned it on: one per action. */
async function onMyWay(tx: Tx, ctx: AppContext, action: CrewActionsTable, job: JobsTable): Promise<string> {
  const account = await tx
    .selectFrom('accounts')
    .select('config')
    .where('id', '=', action.account_id)
    .executeTakeFirstOrThrow();
  const config = readStoredConfig(account.config);
  if (!config.crew_on_my_way_email) return 'Noted.';
  const customer = await tx
    .selectFrom('customers')
    .select(['id', 'name', 'email'])
    .where('id', '=', job.customer_id)
    .executeTakeFirst();
  if (!customer?.email) return 'Noted: the customer has no e-mail address.';
  const member = await tx
    .selectFrom('team_members')
    .select('name')
    .where('id', '=', action.member_id)
    .executeTakeFirst();
  const { eta_minutes: eta } = JSON.parse(action.payload) as { eta_minutes?: number };
  const arrival = new Date(Date.parse(action.done_at) + (eta ?? 30) * 60_000);
  const at = new Intl.DateTimeFormat(config.locale, { timeZone: config.timezone, timeStyle: 'short' }).format(
    arrival,
  );
  await queueMail(tx, ctx, action.account_id, {
    id: derivedId('msg', actionTime(action), `on_my_way:${action.id}`),
    kind: 'winback',
    purpose: 'on_my_way',
    customerId: customer.id,
    documentId: null,
    to: customer.email,
    subject: `${config.business_name} is on the way`,
    body: `Hi ${customer.name},\n\n${member?.name ?? 'Our crew'} is on the way for ${job.title} and expects to arrive around ${at}.\n\n${config.business_name}`,
  });
  return 'The customer was told.';
}

/** Everything done outside the office, customers' then the crew's: what a sync round applies. */
export async function applyOutsideActions(ctx: AppContext, accountId: string): Promise<number> {
  return (await applyPendingActions(ctx, accountId)) + (await applyCrewActions(ctx, accountId));
}
