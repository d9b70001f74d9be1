import type { Timesheet, TimesheetPerson, TimesheetQuery } from '../../shared/schemas/time-entry';
import { addDays, dateInZone, daysBetween, startOfDay, wallTime } from '../../shared/time-zone';
import type { AppContext } from '../context';
import { toIso } from '../lib/clock';
import { csvRow } from '../lib/csv';
import { getAccount } from './accounts';
import { scheduleWindow } from './team';
import { entriesQuery, presentTimeEntry } from './time-entries';

/**
 * Hours per person and day over a period of the business's calendar. A shift counts on the day it
 * started (payroll's usual rule: a night shift is not split at midnight); an entry still open is
 * listed and counts once it ends.
 */
export async function timesheet(
  ctx: AppContext,
  accountId: string,
  query: TimesheetQuery,
): Promise<Timesheet> {
  const { config } = await getAccount(ctx.db, accountId);
  const timeZone = config.timezone;
  const { from, to } = scheduleWindow(query, dateInZone(ctx.clock.now(), timeZone));
  let q = entriesQuery(ctx.db, accountId)
    .where('time_entries.started_at', '>=', toIso(startOfDay(from, timeZone)))
    .where('time_entries.started_at', '<', toIso(startOfDay(addDays(to, 1), timeZone)));
  if (query.member_id) q = q.where('time_entries.member_id', '=', query.member_id);
  const rows = await q.orderBy('time_entries.started_at').orderBy('time_entries.id').execute();

  const dates = Array.from({ length: daysBetween(from, to) + 1 }, (_, i) => addDays(from, i));
  const byMember = new Map<string, TimesheetPerson>();
  for (const row of rows) {
    let person = byMember.get(row.member_id);
    if (!person) {
      person = {
        member: { id: row.member_id, name: row.member_name },
        total_minutes: 0,
        days: dates.map((date) => ({ date, minutes: 0 })),
        entries: [],
      };
      byMember.set(row.member_id, person);
    }
    const entry = presentTimeEntry(row);
    person.entries.push(entry);
    if (entry.minutes === null) continue;
    const day = person.days[daysBetween(from, dateInZone(new Date(entry.started_at), timeZone))];
    if (day) day.minutes += entry.minutes;
    person.total_minutes += entry.minutes;
  }
  const people = [...byMember.values()].sort((a, b) =>
    a.member.name.localeCompare(b.member.name, undefined, { sensitivity: 'base' }),
  );
  return {
    object: 'timesheet',
    from,
    to,
    time_zone: timeZone,
    people,
    total_minutes: people.reduce((sum, p) => sum + p.total_minutes, 0),
  };
}

const hhmm = (iso: string, timeZone: string) => {
  const t = wallTime(new Date(iso), timeZone);
  return `${String(t.hour).padStart(2, '0')}:${String(t.minute).padStart(2, '0')}`;
};

/**
 * The period's hours for payroll: one row per finished entry, in the business's time zone, hours
 * as a decimal (7.50) as payroll services import them. Open entries are left out: they are not
 * hours yet.
 */
export async function timesheetCsv(
  ctx: AppContext,
  accountId: string,
  query: TimesheetQuery,
): Promise<{ filename: string; csv: string }> {
  const sheet = await timesheet(ctx, accountId, query);
  const lines = [csvRow(['Member', 'Date', 'Start', 'End', 'Hours', 'Job', 'Note'])];
  for (const person of sheet.people) {
    for (const entry of person.entries) {
      if (!entry.ended_at || entry.minutes === null) continue;
      lines.push(
        csvRow([
          person.member.name,
          dateInZone(new Date(entry.started_at), sheet.time_zone),
          hhmm(entry.started_at, sheet.time_zone),
          hhmm(entry.ended_at, sheet.time_zone),
          (entry.minutes / 60).toFixed(2),
          entry.job_number ?? '',
          entry.note ?? '',
        ]),
      );
    }
  }
  return { filename: `timesheet-${sheet.from}-to-${sheet.to}.csv`, csv: lines.join('') };
}
