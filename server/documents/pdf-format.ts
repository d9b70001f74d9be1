import { toCents } from '../../shared/money';
import type { StoredConfig } from '../../shared/schemas/config';
import { wallClockDate } from '../../shared/time-zone';
import { formatMoney } from '../domain/documents';

/** How a PDF prints money, dates, quantities and rates: in the business's locale and time zone. */

/** The grey of labels and of the DRAFT stamp. */
export const MUTED = '#616e7c';

/** North America and a few others print on Letter; everyone else on A4. */
export function paperFor(locale: string): 'LETTER' | 'A4' {
  const region = new Intl.Locale(locale).maximize().region ?? '';
  return ['US', 'CA', 'MX', 'PH', 'CL', 'CO', 'VE'].includes(region) ? 'LETTER' : 'A4';
}

export interface Formatters {
  money(amount: number): string;
  date(date: string): string;
  instantDate(instant: string): string;
  instantTime(instant: string): string;
  quantity(value: number): string;
  percent(rate: number): string;
}

export function formatters(config: StoredConfig, currency: string): Formatters {
  const day = new Intl.DateTimeFormat(config.locale, { dateStyle: 'medium', timeZone: 'UTC' });
  const moment = new Intl.DateTimeFormat(config.locale, {
    dateStyle: 'medium',
    timeStyle: 'short',
    timeZone: 'UTC',
  });
  const quantity = new Intl.NumberFormat(config.locale, { maximumFractionDigits: 4 });
  const percent = new Intl.NumberFormat(config.locale, { style: 'percent', maximumFractionDigits: 4 });
  return {
    money: (amount) => formatMoney(toCents(amount), currency, config.locale),
    date: (date) => day.format(new Date(`${date}T00:00:00Z`)),
    instantDate: (instant) => day.format(wallClockDate(new Date(instant), config.timezone)),
    instantTime: (instant) => moment.format(wallClockDate(new Date(instant), config.timezone)),
    quantity: (value) => quantity.format(value),
    percent: (rate) => percent.format(rate),
  };
}
