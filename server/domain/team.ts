import { sql } from 'kysely';
import type {
  ScheduledJob,
  ScheduleGroup,
  TeamMember,
  TeamMemberCreate,
  TeamMemberUpdate,
  TeamSchedule,
} from '../../shared/schemas/team';
import { addDays, dateInZone, daysBetween, isoWeekday, startOfDay } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { TeamMembersTable } from '../db/schema';
import { isoNow, todayIn, toIso } from '../lib/clock';
import { conflict, invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import type { SignedInMember } from './member-sessions';
import { jobsStartingBetween, NOT_CANCELLED } from './scheduled-jobs';
import { accessCounts, checkOwnerFields, endMemberAccess, keepAnOwner } from './team-people';

export const MAX_SCHEDULE_DAYS = 62;
const OPEN_STATUSES = ['unscheduled', 'scheduled', 'in_progress'] as const;

async function findMembersByName(db: Queryable, accountId: string, names: string[]) {
  if (names.length === 0) return [];
  return db
    .selectFrom('team_members')
    .selectAll()
    .where('account_id', '=', accountId)
    .where(
      sql<string>`lower(name)`,
      'in',
      names.map((n) => n.toLowerCase()),
    )
    .execute();
}

/**
 * Member ids for assignee names, in the order given. Names match case-insensitively, so "sam"
 * and "Sam" are one person; unknown names join the team (assigning is how most owners add staff).
 */
export async function ensureMembers(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  names: string[],
): Promise<string[]> {
  const unique = [...new Map(names.map((n) => [n.trim().toLowerCase(), n.trim()])).values()];
  const existing = await findMembersByName(tx, accountId, unique);
  const ids: string[] = [];
  for (const name of unique) {
    const found = existing.find((m) => m.name.toLowerCase() === name.toLowerCase());
    if (found?.deactivated_at) {
      throw validationError(
        `${found.name} is no longer on the team; bring them back under Team first`,
        'assignees',
      );
    }
    if (found) {
      ids.push(found.id);
      continue;
    }
    const row: TeamMembersTable = {
      id: newId('tm', ctx.clock.now().getTime()),
      account_id: accountId,
      name,
      created_at: isoNow(ctx.clock),
      deactivated_at: null,
      role: 'crew',
      email: null,
      phone: null,
      can_see_prices: 0,
    };
    await tx.insertInto('team_members').values(row).execute();
    ids.push(row.id);
  }
  return ids;
}

async function presentMembers(
  db: Queryable,
  rows: TeamMembersTable[],
  now = new Date().toISOString(),
): Promise<TeamMember[]> {
  if (rows.length === 0) return [];
  const access = await accessCounts(
    db,
    rows.map((r) => r.id),
    now,
  );
  const counts = await db
    .selectFrom('job_assignees as a')
    .innerJoin('jobs as j', 'j.id', 'a.job_id')
    .select((eb) => [
      'a.member_id',
      eb.fn
        .sum<number>(
          eb
            .case()
            .when('j.status', 'in', [...OPEN_STATUSES])
            .then(1)
            .else(0)
            .end(),
        )
        .as('open'),
      eb.fn.sum<number>(eb.case().when('j.status', '=', 'completed').then(1).else(0).end()).as('completed'),
    ])
    .where(
      'a.member_id',
      'in',
      rows.map((r) => r.id),
    )
    .groupBy('a.member_id')
    .execute();
  return rows.map((row) => {
    const count = counts.find((c) => c.member_id === row.id);
    return {
      id: row.id,
      object: 'team_member' as const,
      name: row.name,
      open_jobs: Number(count?.open ?? 0),
      completed_jobs: Number(count?.completed ?? 0),
      active: row.deactivated_at === null,
      created_at: row.created_at,
      role: row.role,
      email: row.email,
      phone: row.phone,
      can_see_prices: row.can_see_prices === 1,
      live_sessions: access.get(row.id)!.sessions,
      passkeys: access.get(row.id)!.passkeys,
    };
  });
}

/** A member's name, for the signed-in session's "who am I"; null once they are gone from the team. */
export async function memberName(db: Queryable, accountId: string, memberId: string): Promise<string | null> {
  const row = await db
    .selectFrom('team_members')
    .select('name')
    .where('account_id', '=', accountId)
    .where('id', '=', memberId)
    .executeTakeFirst();
  return row?.name ?? null;
}

export async function listTeam(ctx: AppContext, accountId: string): Promise<TeamMember[]> {
  const rows = await ctx.db
    .selectFrom('team_members')
    .selectAll()
    .where('account_id', '=', accountId)
    .orderBy(sql`lower(name)`)
    .execute();
  return presentMembers(ctx.db, rows, isoNow(ctx.clock));
}

export async function addTeamMember(
  ctx: AppContext,
  accountId: string,
  input: TeamMemberCreate,
  actor: SignedInMember,
): Promise<TeamMember> {
  checkOwnerFields(actor, input);
  return ctx.db.transaction().execute(async (tx) => {
    if ((await findMembersByName(tx, accountId, [input.name])).length) {
      throw conflict(`${input.name} is already on the team`, 'name');
    }
    const [id] = await ensureMembers(tx, ctx, accountId, [input.name]);
    await tx
      .updateTable('team_members')
      .set({
        role: input.role ?? 'crew',
        email: input.email ?? null,
        phone: input.phone ?? null,
        can_see_prices: input.can_see_prices ? 1 : 0,
      })
      .where('id', '=', id!)
      .execute();
    const row = await tx
      .selectFrom('team_members')
      .selectAll()
      .where('id', '=', id!)
      .executeTakeFirstOrThrow();
    const [member] = await presentMembers(tx, [row], isoNow(ctx.clock));
    return member!;
  });
}

async function findMember(db: Queryable, accountId: string, memberId: string): Promise<TeamMembersTable> {
  const row = await db
    .selectFrom('team_members')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', memberId)
    .executeTakeFirst();
  if (!row) throw notFound(`No team member ${memberId}`);
  return row;
}

/**
 * Hands a member's open jobs to another active member (who may already be on some of them), so
 * nobody who leaves takes work with them. Refused without someone to take them over.
 */
async function handOverOpenJobs(
  tx: Tx,
  accountId: string,
  member: TeamMembersTable,
  reassignTo: string | undefined,
  doing: string,
): Promise<void> {
  const [presented] = await presentMembers(tx, [member]);
  const open = presented!.open_jobs;
  if (open === 0) return;
  const plural = open === 1 ? '1 open job' : `${open} open jobs`;
  if (!reassignTo) {
    throw invalidState(`${member.name} has ${plural}; choose who takes them over before ${doing} them`, {
      open_jobs: open,
    });
  }
  const heir = await findMember(tx, accountId, reassignTo);
  if (heir.id === member.id || heir.deactivated_at) {
    throw validationError(`${heir.name} cannot take over ${member.name}'s jobs`, 'reassign_to');
  }
  const jobs = await tx
    .selectFrom('job_assignees as a')
    .innerJoin('jobs as j', 'j.id', 'a.job_id')
    .select('a.job_id')
    .where('a.member_id', '=', member.id)
    .where('j.status', 'in', [...OPEN_STATUSES])
    .execute();
  for (const { job_id } of jobs) {
    await tx
      .deleteFrom('job_assignees')
      .where('job_id', '=', job_id)
      .where('member_id', '=', member.id)
      .execute();
    await tx
      .insertInto('job_assignees')
      .values({ job_id, member_id: heir.id })
      .onConflict((oc) => oc.doNothing())
      .execute();
  }
}

/**
 * Renames, changes details or role, deactivates or brings back a member; deactivating hands their
 * open jobs over first and ends their sessions.
 */
export async function updateTeamMember(
  ctx: AppContext,
  accountId: string,
  memberId: string,
  patch: TeamMemberUpdate,
  actor: SignedInMember,
): Promise<TeamMember> {
  checkOwnerFields(actor, patch);
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findMember(tx, accountId, memberId);
    const name = patch.name?.trim();
    if (name && name.toLowerCase() !== row.name.toLowerCase()) {
      if ((await findMembersByName(tx, accountId, [name])).length) {
        throw conflict(`${name} is already on the team`, 'name');
      }
    }
    if (patch.active === false && row.deactivated_at === null) {
      await handOverOpenJobs(tx, accountId, row, patch.reassign_to, 'deactivating');
    }
    const deactivated_at =
      patch.active === undefined
        ? row.deactivated_at
        : patch.active
          ? null
          : (row.deactivated_at ?? isoNow(ctx.clock));
    const next: TeamMembersTable = {
      ...row,
      name: name ?? row.name,
      deactivated_at,
      role: patch.role ?? row.role,
      email: patch.email === undefined ? row.email : patch.email,
      phone: patch.phone === undefined ? row.phone : patch.phone,
      can_see_prices: patch.can_see_prices === undefined ? row.can_see_prices : patch.can_see_prices ? 1 : 0,
    };
    await keepAnOwner(tx, row, { role: next.role, active: deactivated_at === null });
    if (deactivated_at && !row.deactivated_at) await endMemberAccess(tx, row.id, deactivated_at);
    const { id: _id, account_id: _account, created_at: _created, ...changed } = next;
    await tx.updateTable('team_members').set(changed).where('id', '=', row.id).execute();
    const [member] = await presentMembers(tx, [next], isoNow(ctx.clock));
    return member!;
  });
}

/** Removes a member, handing their open jobs to `reassignTo`; finished jobs keep the history without them. */
export async function removeTeamMember(
  ctx: AppContext,
  accountId: string,
  memberId: string,
  reassignTo?: string,
): Promise<{ id: string; object: 'team_member'; deleted: true }> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findMember(tx, accountId, memberId);
    // Hours are payroll's record: removing their person would take them off the timesheet.
    const hours = await tx
      .selectFrom('time_entries')
      .select('id')
      .where('member_id', '=', memberId)
      .executeTakeFirst();
    if (hours)
      throw invalidState(
        `${row.name} has hours on the timesheet: deactivate them instead, so their hours stay for payroll`,
      );
    await handOverOpenJobs(tx, accountId, row, reassignTo, 'removing');
    await keepAnOwner(tx, row, { role: row.role, active: false });
    await tx.deleteFrom('job_assignees').where('member_id', '=', memberId).execute();
    for (const table of ['member_sessions', 'member_invites', 'member_passkeys'] as const) {
      await tx.deleteFrom(table).where('member_id', '=', memberId).execute();
    }
    await tx.deleteFrom('team_members').where('id', '=', memberId).execute();
    return { id: memberId, object: 'team_member' as const, deleted: true as const };
  });
}

/** The days [from, to] the schedule covers: the query's, else this week Monday to Sunday in the account's zone. */
export function scheduleWindow(
  query: { from?: string | undefined; to?: string | undefined },
  today: string,
): { from: string; to: string } {
  const from = query.from ?? (query.to ? addDays(query.to, -6) : addDays(today, 1 - isoWeekday(today)));
  const to = query.to ?? addDays(from, 6);
  if (to < from) throw validationError('to must not be before from', 'to');
  if (daysBetween(from, to) + 1 > MAX_SCHEDULE_DAYS) {
    throw validationError(`The schedule covers at most ${MAX_SCHEDULE_DAYS} days`, 'to');
  }
  return { from, to };
}

/**
 * Who works where and when: each member's jobs by day (account's time zone), plus the unassigned
 * ones. `onlyMember` (a crew member's own schedule): that member's group alone, no unassigned jobs.
 */
export async function teamSchedule(
  ctx: AppContext,
  accountId: string,
  query: { from?: string | undefined; to?: string | undefined },
  onlyMember: string | null = null,
): Promise<TeamSchedule> {
  const { config } = await getAccount(ctx.db, accountId);
  const timeZone = config.timezone;
  const { from, to } = scheduleWindow(query, todayIn(ctx.clock, timeZone));
  const startIso = toIso(startOfDay(from, timeZone));
  const endIso = toIso(startOfDay(addDays(to, 1), timeZone));

  let memberQuery = ctx.db
    .selectFrom('team_members')
    .select(['id', 'name'])
    .where('account_id', '=', accountId);
  if (onlyMember) memberQuery = memberQuery.where('id', '=', onlyMember);
  const [members, scheduled] = await Promise.all([
    memberQuery.orderBy(sql`lower(name)`).execute(),
    jobsStartingBetween(ctx.db, accountId, { start: startIso, end: endIso, statuses: NOT_CANCELLED }),
  ]);
  const jobs = onlyMember ? scheduled.filter((j) => j.assignees.some((a) => a.id === onlyMember)) : scheduled;

  const dates = Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => addDays(from, i));
  const group = (member: { id: string; name: string } | null, ids: Set<string>): ScheduleGroup => {
    const mine = jobs.filter((j) => ids.has(j.id));
    return {
      member,
      job_count: mine.length,
      days: dates.map((date) => ({
        date,
        jobs: mine
          .filter((j) => dateInZone(new Date(j.scheduled_start!), timeZone) === date)
          .map(
            (j): ScheduledJob => ({
              id: j.id,
              job_number: j.number,
              title: j.title,
              customer_name: j.customer_name,
              address: j.address,
              property_id: j.property_id ?? null,
              place_label: j.place_label,
              access_notes: j.access_notes,
              start: j.scheduled_start!,
              end: j.scheduled_end,
              status: j.status,
            }),
          ),
      })),
    };
  };
  return {
    object: 'team_schedule',
    from,
    to,
    timezone: timeZone,
    members: members.map((m) =>
      group(m, new Set(jobs.filter((j) => j.assignees.some((a) => a.id === m.id)).map((j) => j.id))),
    ),
    unassigned: group(null, new Set(jobs.filter((j) => j.assignees.length === 0).map((j) => j.id))),
  };
}
