/**
 * Wall-clock arithmetic in IANA time zones: days and weeks as the business sees them. The zone
 * rules come from the bundled database (zone-database.ts), never from Intl, so the server and the
 * UI always agree on them.
 */
import { zoneAt } from './zone-database';

export { isKnownTimeZone, timeZoneNames, zoneDatabaseVersion } from './zone-database';

export interface WallTime {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
}

/** UTC offset of `timeZone` at an instant, in minutes (Toronto in winter: -300). */
export function offsetMinutes(instant: Date, timeZone: string): number {
  return zoneAt(instant.getTime(), timeZone).offset;
}

/** The zone's abbreviation at an instant (PST, MST, +0545). */
export function zoneAbbreviation(instant: Date, timeZone: string): string {
  return zoneAt(instant.getTime(), timeZone).abbreviation;
}

/**
 * A Date whose UTC fields read the wall clock in `timeZone`: give it to an Intl formatter set to
 * timeZone 'UTC' to print a local time in any locale without Intl's own zone rules.
 */
export function wallClockDate(instant: Date, timeZone: string): Date {
  return new Date(instant.getTime() + offsetMinutes(instant, timeZone) * 60_000);
}

/** The wall-clock reading in `timeZone` at an instant. */
export function wallTime(instant: Date, timeZone: string): WallTime {
  const d = wallClockDate(instant, timeZone);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/**
 * The instant a wall-clock time happens in `timeZone`. A time that happens twice (clocks going
 * back) is the earlier one; a time that never happens (clocks going forward) moves forward by the
 * gap, so 02:30 on a spring-forward night is 03:30 — the reading a person expects.
 */
export function zonedToUtc(date: string, time: string, timeZone: string): Date {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh = 0, mm = 0, ss = 0] = time.split(':').map(Number);
  const asUtc = Date.UTC(y, m - 1, d, hh, mm, ss);
  const before = offsetMinutes(new Date(asUtc - 86_400_000), timeZone);
  const after = offsetMinutes(new Date(asUtc + 86_400_000), timeZone);
  const candidates = [asUtc - before * 60_000, asUtc - after * 60_000].filter(
    (ms, i) => offsetMinutes(new Date(ms), timeZone) === (i === 0 ? before : after),
  );
  return new Date(candidates.length ? Math.min(...candidates) : asUtc - before * 60_000);
}

/** The instant a calendar day starts in `timeZone`. */
export function startOfDay(date: string, timeZone: string): Date {
  return zonedToUtc(date, '00:00:00', timeZone);
}

/** ISO weekday of a YYYY-MM-DD date: 1 = Monday … 7 = Sunday. */
export function isoWeekday(date: string): number {
  const day = new Date(`${date}T00:00:00Z`).getUTCDay();
  return day === 0 ? 7 : day;
}

/** Whole days from `from` to `to` (both YYYY-MM-DD). */
export function daysBetween(from: string, to: string): number {
  return Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);
}

/** The calendar date (YYYY-MM-DD) of an instant in an IANA time zone. */
export function dateInZone(instant: Date, timeZone: string): string {
  const { year, month, day } = wallTime(instant, timeZone);
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

/** YYYY-MM-DD arithmetic on calendar days (UTC-anchored, so no daylight-saving change moves a day). */
export function addDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
