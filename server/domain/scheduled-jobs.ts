import type { JobStatus } from '../../shared/schemas/job';
import type { Queryable } from '../db/database';
import type { JobsTable } from '../db/schema';

/** A job on a schedule: its row, who it is for and who does it. */
export interface JobOnSchedule extends JobsTable {
  customer_name: string;
  customer_email: string | null;
  /** The job's place: its label, and the access notes the crew needs to get in. */
  place_label: string | null;
  access_notes: string | null;
  /** By name, as calendars and schedules list them. */
  assignees: { id: string; name: string }[];
}

/** Every status but cancelled: what the dashboard and the team schedule show. */
export const NOT_CANCELLED: readonly JobStatus[] = ['unscheduled', 'scheduled', 'in_progress', 'completed'];

/**
 * An account's jobs in the given statuses that start in [start, end), in start order, with their
 * customer, place and assignees (two queries, whatever the number of jobs). The calendar feed, the
 * dashboard and the team schedule all read jobs this way.
 */
export async function jobsStartingBetween(
  db: Queryable,
  accountId: string,
  window: { start: string; end: string; statuses: readonly JobStatus[]; limit?: number },
): Promise<JobOnSchedule[]> {
  let query = db
    .selectFrom('jobs as j')
    .innerJoin('customers as c', 'c.id', 'j.customer_id')
    .leftJoin('properties as p', 'p.id', 'j.property_id')
    .selectAll('j')
    .select([
      'c.name as customer_name',
      'c.email as customer_email',
      'p.label as place_label',
      'p.access_notes as access_notes',
    ])
    .where('j.account_id', '=', accountId)
    .where('j.status', 'in', [...window.statuses])
    .where('j.scheduled_start', '>=', window.start)
    .where('j.scheduled_start', '<', window.end)
    .orderBy('j.scheduled_start')
    .orderBy('j.id');
  if (window.limit !== undefined) query = query.limit(window.limit);
  const rows = await query.execute();
  if (rows.length === 0) return [];
  const assignees = await db
    .selectFrom('job_assignees as a')
    .innerJoin('team_members as m', 'm.id', 'a.member_id')
    .select(['a.job_id', 'm.id', 'm.name'])
    .where(
      'a.job_id',
      'in',
      rows.map((r) => r.id),
    )
    .orderBy('m.name')
    .execute();
  return rows.map((row) => ({
    ...row,
    assignees: assignees.filter((a) => a.job_id === row.id).map(({ id, name }) => ({ id, name })),
  }));
}
