/**
 * Numbers, money and dates in the account's locale, currency and time zone. Intl formats them; the
 * zone rules come from the bundled database shared with the server (shared/time-zone.ts).
 */

import { addDays, dateInZone, wallClockDate, wallTime, zonedToUtc } from '../../shared/time-zone';

export { addDays };

export interface Formatters {
  money(amount: number, currency?: string): string;
  compactMoney(amount: number): string;
  number(value: number): string;
  percent(fraction: number): string;
  /** A timestamp as a date and time in the account's time zone. */
  dateTime(iso: string): string;
  /** A timestamp's time of day in the account's time zone. */
  time(iso: string): string;
  /** A calendar date (YYYY-MM-DD) without any time-zone shift. */
  date(day: string): string;
  /** A timestamp's day in the account's time zone, as YYYY-MM-DD. */
  dayOf(iso: string): string;
  /** A timestamp's day in the account's time zone, as a date (8:40 p.m. Nov 23 in Vancouver is Nov 23). */
  dateOf(iso: string): string;
  weekday(day: string): string;
  /** A calendar date as a short axis label (Nov 16). */
  shortDay(day: string): string;
  relative(iso: string, now?: Date): string;
}

export function createFormatters(locale: string, currency: string, timeZone: string): Formatters {
  const moneyFormats = new Map<string, Intl.NumberFormat>();
  const moneyFormat = (code: string) => {
    let format = moneyFormats.get(code);
    if (!format) {
      format = new Intl.NumberFormat(locale, { style: 'currency', currency: code });
      moneyFormats.set(code, format);
    }
    return format;
  };
  const compact = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    notation: 'compact',
    maximumFractionDigits: 1,
  });
  const number = new Intl.NumberFormat(locale);
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 3 });
  const dateTime = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    dateStyle: 'medium',
    timeStyle: 'short',
  });
  const time = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', hour: 'numeric', minute: '2-digit' });
  const date = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', dateStyle: 'medium' });
  const weekday = new Intl.DateTimeFormat(locale, {
    timeZone: 'UTC',
    weekday: 'short',
    day: 'numeric',
    month: 'short',
  });
  const shortDay = new Intl.DateTimeFormat(locale, { timeZone: 'UTC', day: 'numeric', month: 'short' });
  const relative = new Intl.RelativeTimeFormat(locale, { numeric: 'auto' });
  const utcDay = (day: string) => new Date(`${day}T00:00:00Z`);
  const wall = (iso: string) => wallClockDate(new Date(iso), timeZone);

  return {
    money: (amount, code = currency) => moneyFormat(code).format(amount),
    compactMoney: (amount) => compact.format(amount),
    number: (value) => number.format(value),
    percent: (fraction) => percent.format(fraction),
    dateTime: (iso) => dateTime.format(wall(iso)),
    time: (iso) => time.format(wall(iso)),
    date: (day) => date.format(utcDay(day.slice(0, 10))),
    dayOf: (iso) => dateInZone(new Date(iso), timeZone),
    dateOf: (iso) => date.format(utcDay(dateInZone(new Date(iso), timeZone))),
    weekday: (day) => weekday.format(utcDay(day)),
    shortDay: (day) => shortDay.format(utcDay(day)),
    relative: (iso, now = new Date()) => {
      const seconds = (new Date(iso).getTime() - now.getTime()) / 1000;
      const units: Array<[Intl.RelativeTimeFormatUnit, number]> = [
        ['year', 31_536_000],
        ['month', 2_592_000],
        ['week', 604_800],
        ['day', 86_400],
        ['hour', 3600],
        ['minute', 60],
      ];
      for (const [unit, size] of units) {
        if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
      }
      return relative.format(Math.round(seconds), 'second');
    },
  };
}

/** The Monday on or before a day. */
export function mondayOf(day: string): string {
  const weekday = new Date(`${day}T00:00:00Z`).getUTCDay();
  return addDays(day, -((weekday + 6) % 7));
}

/** Today in a time zone, as YYYY-MM-DD. */
export function todayIn(timeZone: string, now = new Date()): string {
  return dateInZone(now, timeZone);
}

/**
 * A wall-clock time typed in a form (YYYY-MM-DDTHH:MM, the value of <input type="datetime-local">)
 * read in the account's time zone, as a UTC ISO timestamp.
 */
export function zonedLocalToIso(local: string, timeZone: string): string {
  const [date, time] = local.split('T') as [string, string];
  return zonedToUtc(date, time, timeZone)
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z');
}

/** A UTC timestamp as the wall-clock value of <input type="datetime-local"> in a time zone. */
export function isoToZonedLocal(iso: string, timeZone: string): string {
  const wall = wallTime(new Date(iso), timeZone);
  const two = (n: number) => String(n).padStart(2, '0');
  return `${wall.year}-${two(wall.month)}-${two(wall.day)}T${two(wall.hour)}:${two(wall.minute)}`;
}
