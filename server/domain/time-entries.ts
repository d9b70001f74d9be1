import type {
  ClockIn,
  TimeEntry,
  TimeEntryCreate,
  TimeEntryListQuery,
  TimeEntryUpdate,
} from '../../shared/schemas/time-entry';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { TimeEntriesTable } from '../db/schema-hours';
import { isoNow, toIso } from '../lib/clock';
import { conflict, invalidState, notFound, roleForbidden, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { keysetPage, type Page } from './pagination';

/** A typed entry longer than this is a mistake (a forgotten clock-out, a wrong day): split it instead. */
export const MAX_ENTRY_MINUTES = 24 * 60;
/** Clocks of phones and office computers differ by a little; an entry further ahead than this is a typo. */
const FUTURE_SLACK_MS = 5 * 60_000;

type EntryRow = TimeEntriesTable & { member_name: string; job_number: string | null };

export function minutesBetween(startedAt: string, endedAt: string): number {
  return Math.round((Date.parse(endedAt) - Date.parse(startedAt)) / 60_000);
}

export function presentTimeEntry(row: EntryRow): TimeEntry {
  return {
    id: row.id,
    object: 'time_entry',
    member_id: row.member_id,
    member_name: row.member_name,
    job_id: row.job_id,
    job_number: row.job_number,
    started_at: row.started_at,
    ended_at: row.ended_at,
    minutes: row.ended_at ? minutesBetween(row.started_at, row.ended_at) : null,
    source: row.source,
    note: row.note,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** Kept entries with their member's name and job's number, for lists and the timesheet. */
export function entriesQuery(db: Queryable, accountId: string) {
  return db
    .selectFrom('time_entries')
    .innerJoin('team_members', 'team_members.id', 'time_entries.member_id')
    .leftJoin('jobs', 'jobs.id', 'time_entries.job_id')
    .selectAll('time_entries')
    .select(['team_members.name as member_name', 'jobs.number as job_number'])
    .where('time_entries.account_id', '=', accountId)
    .where('time_entries.status', '=', 'kept');
}

/** `onlyMember`: a crew member's own hours; another's entry does not exist for them. */
async function getRow(
  db: Queryable,
  accountId: string,
  id: string,
  onlyMember: string | null = null,
): Promise<EntryRow> {
  let q = entriesQuery(db, accountId).where('time_entries.id', '=', id);
  if (onlyMember) q = q.where('time_entries.member_id', '=', onlyMember);
  const row = await q.executeTakeFirst();
  if (!row) throw notFound(`No time entry ${id}`);
  return row;
}

export async function listTimeEntries(
  ctx: AppContext,
  accountId: string,
  query: TimeEntryListQuery,
): Promise<Page<TimeEntry>> {
  return keysetPage(
    query,
    'te',
    (beforeId, limit) => {
      let q = entriesQuery(ctx.db, accountId);
      if (beforeId) q = q.where('time_entries.id', '<', beforeId);
      if (query.member_id) q = q.where('time_entries.member_id', '=', query.member_id);
      if (query.job_id) q = q.where('time_entries.job_id', '=', query.job_id);
      if (query.open !== undefined) q = q.where('time_entries.ended_at', query.open ? 'is' : 'is not', null);
      return q.orderBy('time_entries.id', 'desc').limit(limit).execute();
    },
    (rows) => rows.map(presentTimeEntry),
  );
}

export async function getTimeEntry(
  ctx: AppContext,
  accountId: string,
  id: string,
  onlyMember: string | null = null,
): Promise<TimeEntry> {
  return presentTimeEntry(await getRow(ctx.db, accountId, id, onlyMember));
}

/** Someone on the team now: hours are recorded for current members only. */
async function activeMember(db: Queryable, accountId: string, memberId: string) {
  const member = await db
    .selectFrom('team_members')
    .select(['id', 'name', 'deactivated_at'])
    .where('account_id', '=', accountId)
    .where('id', '=', memberId)
    .executeTakeFirst();
  if (!member) throw validationError(`No team member ${memberId} in this account`, 'member_id');
  if (member.deactivated_at)
    throw validationError(`${member.name} is no longer on the team: bring them back first`, 'member_id');
  return member;
}

async function checkJob(db: Queryable, accountId: string, jobId: string | null | undefined) {
  if (!jobId) return;
  const job = await db
    .selectFrom('jobs')
    .select('id')
    .where('account_id', '=', accountId)
    .where('id', '=', jobId)
    .executeTakeFirst();
  if (!job) throw validationError(`No job ${jobId} in this account`, 'job_id');
}

function checkSpan(startedAt: string, endedAt: string, now: string) {
  if (Date.parse(startedAt) > Date.parse(now) + FUTURE_SLACK_MS)
    throw validationError('started_at is in the future: hours are recorded once worked', 'started_at');
  if (Date.parse(endedAt) > Date.parse(now) + FUTURE_SLACK_MS)
    throw validationError('ended_at is in the future: hours are recorded once worked', 'ended_at');
  const minutes = minutesBetween(startedAt, endedAt);
  if (minutes <= 0) throw validationError('ended_at must be after started_at', 'ended_at');
  if (minutes > MAX_ENTRY_MINUTES)
    throw validationError('An entry covers at most 24 hours: split a longer one', 'ended_at');
}

/**
 * A person works one shift at a time, so overlapping entries would pay the same hour twice. An
 * entry still open counts up to now.
 */
async function checkNoOverlap(
  db: Queryable,
  accountId: string,
  entry: { id?: string; member_id: string; started_at: string; ended_at: string },
  now: string,
) {
  let q = entriesQuery(db, accountId)
    .where('time_entries.member_id', '=', entry.member_id)
    .where('time_entries.started_at', '<', entry.ended_at)
    .where((eb) =>
      eb.or([eb('time_entries.ended_at', '>', entry.started_at), eb('time_entries.ended_at', 'is', null)]),
    );
  if (entry.id) q = q.where('time_entries.id', '!=', entry.id);
  const candidates = await q.orderBy('time_entries.started_at').execute();
  const clash = candidates.find((c) => (c.ended_at ?? now) > entry.started_at);
  if (!clash) return;
  const until = clash.ended_at ?? 'now (still clocked in)';
  throw conflict(
    `${clash.member_name} already has hours from ${clash.started_at} to ${until} (${clash.id}) that overlap these`,
    'started_at',
  );
}

async function insertEntry(tx: Tx, row: TimeEntriesTable): Promise<TimeEntry> {
  await tx.insertInto('time_entries').values(row).execute();
  return presentTimeEntry(await getRow(tx, row.account_id, row.id));
}

export async function createTimeEntry(
  ctx: AppContext,
  accountId: string,
  input: TimeEntryCreate,
): Promise<TimeEntry> {
  return ctx.db.transaction().execute(async (tx) => {
    const now = isoNow(ctx.clock);
    const startedAt = toIso(new Date(input.started_at));
    const endedAt = toIso(new Date(input.ended_at));
    await activeMember(tx, accountId, input.member_id);
    await checkJob(tx, accountId, input.job_id);
    checkSpan(startedAt, endedAt, now);
    await checkNoOverlap(
      tx,
      accountId,
      { member_id: input.member_id, started_at: startedAt, ended_at: endedAt },
      now,
    );
    return insertEntry(tx, {
      id: newId('te', ctx.clock.now().getTime()),
      account_id: accountId,
      member_id: input.member_id,
      job_id: input.job_id ?? null,
      started_at: startedAt,
      ended_at: endedAt,
      source: 'office',
      note: input.note ?? null,
      status: 'kept',
      created_at: now,
      updated_at: now,
    });
  });
}

/** `onlyMember`: the crew clock themselves in, nobody else. */
export async function clockIn(
  ctx: AppContext,
  accountId: string,
  input: ClockIn,
  onlyMember: string | null = null,
): Promise<TimeEntry> {
  if (onlyMember && input.member_id !== onlyMember) {
    throw roleForbidden('The crew clock in themselves only: member_id must be yours.', 'member_id');
  }
  return ctx.db.transaction().execute((tx) => clockInIn(tx, ctx, accountId, input));
}

/**
 * A stamp makes the clock-in a crew member's action applied by any install (domain/crew-actions.ts):
 * the entry's id and start are the action's, so two installs applying it write one row.
 */
export interface ClockStamp {
  id: string;
  at: string;
}

export async function clockInIn(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: ClockIn,
  stamp?: ClockStamp,
): Promise<TimeEntry> {
  const now = stamp?.at ?? isoNow(ctx.clock);
  const member = await activeMember(tx, accountId, input.member_id);
  await checkJob(tx, accountId, input.job_id);
  const open = await openEntry(tx, accountId, member.id);
  if (open)
    throw invalidState(`${member.name} is already clocked in since ${open.started_at}: clock out first`, {
      time_entry_id: open.id,
    });
  return insertEntry(tx, {
    id: stamp?.id ?? newId('te', ctx.clock.now().getTime()),
    account_id: accountId,
    member_id: member.id,
    job_id: input.job_id ?? null,
    started_at: now,
    ended_at: null,
    source: 'clock',
    note: input.note ?? null,
    status: 'kept',
    created_at: now,
    updated_at: now,
  });
}

/** The member's entry still running, if they are clocked in. */
export function openEntry(db: Queryable, accountId: string, memberId: string) {
  return entriesQuery(db, accountId)
    .where('time_entries.member_id', '=', memberId)
    .where('time_entries.ended_at', 'is', null)
    .executeTakeFirst();
}

/** `onlyMember`: a crew member clocks out of their own entry only. */
export const clockOut = (
  ctx: AppContext,
  accountId: string,
  id: string,
  onlyMember: string | null = null,
): Promise<TimeEntry> =>
  ctx.db.transaction().execute((tx) => clockOutIn(tx, ctx, accountId, id, undefined, onlyMember));

/** `at`: when the member clocked out on their phone, when it reaches an install later. */
export async function clockOutIn(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  id: string,
  at?: string,
  onlyMember: string | null = null,
): Promise<TimeEntry> {
  const now = at ?? isoNow(ctx.clock);
  const row = await getRow(tx, accountId, id, onlyMember);
  if (row.ended_at)
    throw invalidState(`${row.member_name} clocked out of this entry at ${row.ended_at} already`);
  if (minutesBetween(row.started_at, now) > MAX_ENTRY_MINUTES)
    throw invalidState(
      `${row.member_name} clocked in more than 24 hours ago: set the end time on the timesheet instead`,
    );
  if (minutesBetween(row.started_at, now) < 0) throw invalidState('The clock-out is before the clock-in');
  await tx.updateTable('time_entries').set({ ended_at: now, updated_at: now }).where('id', '=', id).execute();
  return presentTimeEntry(await getRow(tx, accountId, id));
}

export async function updateTimeEntry(
  ctx: AppContext,
  accountId: string,
  id: string,
  patch: TimeEntryUpdate,
): Promise<TimeEntry> {
  return ctx.db.transaction().execute(async (tx) => {
    const now = isoNow(ctx.clock);
    const row = await getRow(tx, accountId, id);
    const startedAt = patch.started_at ? toIso(new Date(patch.started_at)) : row.started_at;
    const endedAt = patch.ended_at ? toIso(new Date(patch.ended_at)) : row.ended_at;
    if (patch.job_id !== undefined) await checkJob(tx, accountId, patch.job_id);
    if (endedAt) {
      checkSpan(startedAt, endedAt, now);
      await checkNoOverlap(
        tx,
        accountId,
        { id, member_id: row.member_id, started_at: startedAt, ended_at: endedAt },
        now,
      );
    } else if (Date.parse(startedAt) > Date.parse(now) + FUTURE_SLACK_MS) {
      throw validationError('started_at is in the future: hours are recorded once worked', 'started_at');
    }
    await tx
      .updateTable('time_entries')
      .set({
        started_at: startedAt,
        ended_at: endedAt,
        ...(patch.job_id !== undefined && { job_id: patch.job_id }),
        ...(patch.note !== undefined && { note: patch.note }),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    return presentTimeEntry(await getRow(tx, accountId, id));
  });
}

/** Removed entries keep their row (status deleted) so the removal wins over an edit made elsewhere. */
export async function deleteTimeEntry(ctx: AppContext, accountId: string, id: string) {
  return ctx.db.transaction().execute(async (tx) => {
    await getRow(tx, accountId, id);
    await tx
      .updateTable('time_entries')
      .set({ status: 'deleted', updated_at: isoNow(ctx.clock) })
      .where('id', '=', id)
      .execute();
    return { id, object: 'time_entry' as const, deleted: true as const };
  });
}
