/**
 * Recurrence of service plans (docs/recurring-work.md): RFC 5545 rules evaluated by `rrule` on
 * calendar dates, then given the plan's wall-clock times in the business's zone by the one
 * time-zone module. rrule is fed "floating" dates (UTC fields read as local dates, as its
 * documentation advises), so no zone arithmetic happens inside it: a 9:00 visit stays 9:00 local
 * on both sides of a daylight-saving change.
 */
import * as rruleModule from 'rrule';
import { addDays, isoWeekday, zonedToUtc } from './time-zone';

// rrule ships ES modules for bundlers and a UMD build for Node: take RRule from whichever loaded.
const { RRule } = (
  (rruleModule as unknown as { RRule?: unknown }).RRule
    ? rruleModule
    : (rruleModule as unknown as { default: typeof rruleModule }).default
) as typeof rruleModule;

export const WEEKDAY_CODES = ['MO', 'TU', 'WE', 'TH', 'FR', 'SA', 'SU'] as const;
export type WeekdayCode = (typeof WEEKDAY_CODES)[number];
export type Frequency = 'daily' | 'weekly' | 'monthly';

export interface RecurrenceRule {
  frequency: Frequency;
  /** Every `interval` days, weeks or months (RRULE INTERVAL). */
  interval: number;
  /** BYDAY for daily and weekly rules; empty means the start date's weekday (weekly) or every day. */
  weekdays: readonly WeekdayCode[];
  /** BYMONTHDAY for monthly rules: 1–31, or -1 for the last day; null means the start date's day. */
  month_day: number | null;
  /** DTSTART's date (YYYY-MM-DD), in the business's zone. */
  start_date: string;
  /** Wall-clock times of each visit, HH:MM, end after start on the same day. */
  start_time: string;
  end_time: string;
  /** UNTIL, inclusive (a visit on that date still happens). */
  until: string | null;
  /** COUNT: occurrences of the rule, counted from the start date, holidays included. */
  count: number | null;
  holidays: readonly string[];
  /** A rule date on a holiday is dropped (skip) or moved to the next day that is not a holiday (move). */
  holiday_rule: 'skip' | 'move';
}

export interface Occurrence {
  /** The rule's date: what identifies the visit, whatever holiday moved it. */
  occurrence: string;
  /** The date the visit happens on (the next free day when a holiday moved it). */
  date: string;
  /** UTC instants, second precision, as jobs store them. */
  start: string;
  end: string;
  moved: boolean;
}

const toFloating = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
const fromFloating = (d: Date) => d.toISOString().slice(0, 10);

function rruleOf(rule: RecurrenceRule) {
  const weekdays = rule.weekdays.map((code) => WEEKDAY_CODES.indexOf(code));
  return new RRule({
    freq:
      rule.frequency === 'daily' ? RRule.DAILY : rule.frequency === 'weekly' ? RRule.WEEKLY : RRule.MONTHLY,
    interval: rule.interval,
    dtstart: toFloating(rule.start_date),
    wkst: RRule.MO,
    byweekday:
      rule.frequency === 'monthly'
        ? null
        : weekdays.length
          ? weekdays
          : rule.frequency === 'weekly'
            ? [isoWeekday(rule.start_date) - 1]
            : null,
    bymonthday:
      rule.frequency === 'monthly' ? [rule.month_day ?? Number(rule.start_date.slice(8, 10))] : null,
    until: rule.until ? toFloating(rule.until) : null,
    count: rule.count ?? null,
  });
}

/** The RRULE line of a rule (for the API and calendar-minded integrators). */
export function rruleText(rule: RecurrenceRule): string {
  return rruleOf(rule).toString();
}

/** The rule's dates in [from, to] (YYYY-MM-DD, both included), before holidays are applied. */
export function ruleDates(rule: RecurrenceRule, from: string, to: string): string[] {
  if (to < from) return [];
  return rruleOf(rule).between(toFloating(from), toFloating(to), true).map(fromFloating);
}

const toInstant = (date: string, time: string, timeZone: string) =>
  zonedToUtc(date, `${time}:00`, timeZone)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');

/**
 * The visits of a rule whose rule date falls in [from, to], with holidays applied and times in
 * `timeZone`. A moved visit keeps its rule date as `occurrence`.
 */
export function occurrences(rule: RecurrenceRule, timeZone: string, from: string, to: string): Occurrence[] {
  const holidays = new Set(rule.holidays);
  const out: Occurrence[] = [];
  for (const occurrence of ruleDates(rule, from, to)) {
    let date = occurrence;
    if (holidays.has(date)) {
      if (rule.holiday_rule === 'skip') continue;
      while (holidays.has(date)) date = addDays(date, 1);
    }
    out.push({
      occurrence,
      date,
      start: toInstant(date, rule.start_time, timeZone),
      end: toInstant(date, rule.end_time, timeZone),
      moved: date !== occurrence,
    });
  }
  return out;
}

/** The rule date of the last occurrence, or null when the rule never ends. */
export function lastRuleDate(rule: RecurrenceRule): string | null {
  if (!rule.until && !rule.count) return null;
  const all = rruleOf(rule).all((_, i) => i < 10_000);
  const last = all[all.length - 1];
  return last ? fromFloating(last) : null;
}

const WEEKDAY_NAMES: Record<WeekdayCode, string> = {
  MO: 'Monday',
  TU: 'Tuesday',
  WE: 'Wednesday',
  TH: 'Thursday',
  FR: 'Friday',
  SA: 'Saturday',
  SU: 'Sunday',
};
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/** 30 Jun 2027: dates in summaries read the same in every locale. */
export function shortDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return `${d} ${MONTHS[m - 1]} ${y}`;
}

const clockTime = (time: string) => {
  const [h, m] = time.split(':');
  return `${Number(h)}:${m}`;
};

function ordinal(n: number): string {
  const tens = n % 100;
  if (tens >= 11 && tens <= 13) return `${n}th`;
  return `${n}${({ 1: 'st', 2: 'nd', 3: 'rd' } as Record<number, string>)[n % 10] ?? 'th'}`;
}

function list(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

/** "Every 2 weeks on Tuesday, 9:00–11:00, until 30 Jun 2027". */
export function describeRule(rule: RecurrenceRule): string {
  const unit = { daily: 'day', weekly: 'week', monthly: 'month' }[rule.frequency];
  const every = rule.interval === 1 ? `Every ${unit}` : `Every ${rule.interval} ${unit}s`;
  let on = '';
  if (rule.frequency === 'monthly') {
    const day = rule.month_day ?? Number(rule.start_date.slice(8, 10));
    on =
      day === -1
        ? ' on the last day'
        : day > 28
          ? ` on the ${ordinal(day)} (months without one are skipped)`
          : ` on the ${ordinal(day)}`;
  } else {
    const codes = rule.weekdays.length
      ? WEEKDAY_CODES.filter((c) => rule.weekdays.includes(c))
      : rule.frequency === 'weekly'
        ? [WEEKDAY_CODES[isoWeekday(rule.start_date) - 1]!]
        : [];
    if (codes.length) on = ` on ${list(codes.map((c) => WEEKDAY_NAMES[c]))}`;
  }
  const parts = [`${every}${on}`, `${clockTime(rule.start_time)}–${clockTime(rule.end_time)}`];
  if (rule.until) parts.push(`until ${shortDate(rule.until)}`);
  else if (rule.count) parts.push(rule.count === 1 ? 'once' : `${rule.count} times`);
  if (rule.holidays.length) {
    const n = rule.holidays.length;
    parts.push(
      `${n} holiday${n === 1 ? '' : 's'} ${rule.holiday_rule === 'skip' ? 'skipped' : 'moved to the next day'}`,
    );
  }
  return parts.join(', ');
}
