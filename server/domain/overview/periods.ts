import { type RawBuilder, sql } from 'kysely';
import { addDays, daysBetween, isoWeekday, offsetMinutes, startOfDay } from '../../../shared/time-zone';
import { toIso } from '../../lib/clock';
import { validationError } from '../../lib/errors';

/**
 * Periods as the business sees them: calendar days in the account's time zone, turned into the
 * UTC instants that stored timestamps are compared with. A period is inclusive of both dates;
 * its instant range is half-open [start, end).
 */
export interface Period {
  from: string;
  to: string;
  /** UTC instant the first day starts. */
  start: string;
  /** UTC instant the day after the last day starts. */
  end: string;
}

export function period(from: string, to: string, timeZone: string): Period {
  return {
    from,
    to,
    start: toIso(startOfDay(from, timeZone)),
    end: toIso(startOfDay(addDays(to, 1), timeZone)),
  };
}

export function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

export function addMonths(date: string, months: number): string {
  const [y, m] = date.split('-').map(Number) as [number, number];
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  return `${String(year).padStart(4, '0')}-${String(month).padStart(2, '0')}-01`;
}

export function monthEnd(date: string): string {
  return addDays(addMonths(monthStart(date), 1), -1);
}

/** The Monday on or before a date (weeks start on Monday). */
export function weekStart(date: string): string {
  return addDays(date, 1 - isoWeekday(date));
}

/** Days in a period, counting both ends. */
export function spanDays(from: string, to: string): number {
  return daysBetween(from, to) + 1;
}

/**
 * Checks a from/to pair once defaults are filled: `to` may not precede `from` and the span is
 * bounded so one request cannot ask the database to aggregate an unbounded history.
 */
export function checkRange(from: string, to: string, maxDays: number): void {
  if (to < from) throw validationError('to must not be before from', 'to');
  if (spanDays(from, to) > maxDays) {
    throw validationError(`The period may span at most ${maxDays} days`, 'to');
  }
}

/**
 * The index of the bucket a column's (or expression's) value falls into, as SQL: `bounds` are the buckets' starts
 * in ascending order followed by the end of the last one. Callers restrict the rows to
 * [bounds[0], last) so every row gets an index. ISO timestamps and dates compare correctly as text.
 */
export function bucketIndex(value: string | RawBuilder<unknown>, bounds: string[]): RawBuilder<number> {
  const ref = typeof value === 'string' ? sql.ref(value) : value;
  const branches = bounds.slice(1).map((bound, i) => sql`WHEN ${ref} < ${bound} THEN ${sql.lit(i)}`);
  return sql<number>`CASE ${sql.join(branches, sql` `)} END`;
}

const MINUTE_MS = 60_000;
const WEEK_MS = 7 * 24 * 60 * MINUTE_MS;

/**
 * The stretches of [start, end) over which the zone's UTC offset is constant. Transitions are
 * months apart, so a weekly scan finds each one and a binary search pins it to the minute.
 */
export function offsetSegments(
  timeZone: string,
  start: Date,
  end: Date,
): Array<{ from: number; offset: number }> {
  const at = (ms: number) => offsetMinutes(new Date(ms), timeZone);
  const segments = [{ from: start.getTime(), offset: at(start.getTime()) }];
  for (let t = start.getTime(); t < end.getTime(); t += WEEK_MS) {
    const next = Math.min(t + WEEK_MS, end.getTime());
    const before = at(t);
    if (at(next) === before) continue;
    let lo = t;
    let hi = next;
    while (hi - lo > MINUTE_MS) {
      const mid = lo + Math.floor((hi - lo) / 2 / MINUTE_MS) * MINUTE_MS;
      if (at(mid) === before) lo = mid;
      else hi = mid;
    }
    segments.push({ from: hi, offset: at(hi) });
  }
  return segments;
}

/**
 * SQL giving the calendar date, in the account's time zone, of a UTC timestamp column, exact
 * across DST changes between `start` and `end` (the range the query's rows lie in).
 */
export function localDateSql(column: string, timeZone: string, start: Date, end: Date): RawBuilder<string> {
  const ref = sql.ref(column);
  const segments = offsetSegments(timeZone, start, end);
  const shift = (offset: number) => `${offset >= 0 ? '+' : ''}${offset} minutes`;
  const branches = segments
    .slice(1)
    .map(
      (segment, i) =>
        sql`WHEN ${ref} < ${toIso(new Date(segment.from))} THEN date(${ref}, ${shift(segments[i]!.offset)})`,
    );
  const last = shift(segments[segments.length - 1]!.offset);
  return branches.length
    ? sql<string>`CASE ${sql.join(branches, sql` `)} ELSE date(${ref}, ${last}) END`
    : sql<string>`date(${ref}, ${last})`;
}
