import type { Job } from '../../shared/schemas/job';
import { isoToZonedLocal, zonedLocalToIso } from '../lib/format';

/** Where a job dropped on an unscheduled day starts: the usual start of a working morning. */
export const DEFAULT_START = '09:00';

/**
 * A job dragged onto another day keeps its wall-clock start and its length (across a clock change
 * too); an unscheduled one starts at 09:00 that day.
 */
export function movedSchedule(
  job: Pick<Job, 'scheduled_start' | 'scheduled_end'>,
  day: string,
  timeZone: string,
): { scheduled_start: string; scheduled_end: string | null } {
  const time = job.scheduled_start ? isoToZonedLocal(job.scheduled_start, timeZone).slice(11) : DEFAULT_START;
  const start = zonedLocalToIso(`${day}T${time}`, timeZone);
  if (!job.scheduled_start || !job.scheduled_end) return { scheduled_start: start, scheduled_end: null };
  const length = Date.parse(job.scheduled_end) - Date.parse(job.scheduled_start);
  return {
    scheduled_start: start,
    scheduled_end: new Date(Date.parse(start) + length).toISOString().replace(/\.\d{3}Z$/, 'Z'),
  };
}
