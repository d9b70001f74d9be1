import type { ServicePlan } from '../../shared/schemas/service-plan';
import { parseNames } from './job-fields';
import { NO_PLACE, placeField } from './place-picker';

/** The service plan form as typed, and the body it sends (plan-form.tsx). */

export const WEEKDAYS = [
  ['MO', 'Mon'],
  ['TU', 'Tue'],
  ['WE', 'Wed'],
  ['TH', 'Thu'],
  ['FR', 'Fri'],
  ['SA', 'Sat'],
  ['SU', 'Sun'],
] as const;
export type Weekday = (typeof WEEKDAYS)[number][0];
export const MONTH_DAYS = Array.from({ length: 31 }, (_, i) => i + 1);

export interface Draft {
  customer_id: string;
  customer_email: string;
  customer_name: string;
  title: string;
  /** A place id, NO_PLACE, or '' until the customer's default is known. */
  property: string;
  address: string;
  price: string;
  assignees: string;
  notes: string;
  frequency: ServicePlan['frequency'];
  interval: string;
  weekdays: Weekday[];
  month_day: string;
  start_date: string;
  start_time: string;
  end_time: string;
  ends: 'never' | 'until' | 'count';
  until: string;
  count: string;
  horizon_weeks: string;
  holidays: string;
  holiday_rule: 'skip' | 'move';
  billing: ServicePlan['billing'];
  invoice_delivery: ServicePlan['invoice_delivery'];
}

export function draftOf(plan: ServicePlan | undefined, today: string): Draft {
  if (!plan)
    return {
      customer_id: '',
      customer_email: '',
      customer_name: '',
      title: '',
      property: '',
      address: '',
      price: '',
      assignees: '',
      notes: '',
      frequency: 'weekly',
      interval: '1',
      weekdays: [],
      month_day: '',
      start_date: today,
      start_time: '09:00',
      end_time: '10:00',
      ends: 'never',
      until: '',
      count: '',
      horizon_weeks: '8',
      holidays: '',
      holiday_rule: 'skip',
      billing: 'none',
      invoice_delivery: 'draft',
    };
  return {
    customer_id: plan.customer.id,
    customer_email: plan.customer.email ?? '',
    customer_name: plan.customer.name,
    title: plan.title,
    property: plan.property_id ?? NO_PLACE,
    address: plan.address ?? '',
    price: plan.price === null ? '' : String(plan.price),
    assignees: plan.assignees.join(', '),
    notes: plan.notes ?? '',
    frequency: plan.frequency,
    interval: String(plan.interval),
    weekdays: plan.weekdays,
    month_day: plan.month_day === null ? '' : String(plan.month_day),
    start_date: plan.start_date,
    start_time: plan.start_time,
    end_time: plan.end_time,
    ends: plan.until ? 'until' : plan.count ? 'count' : 'never',
    until: plan.until ?? '',
    count: plan.count === null ? '' : String(plan.count),
    horizon_weeks: String(plan.horizon_weeks),
    holidays: plan.holidays.join('\n'),
    holiday_rule: plan.holiday_rule,
    billing: plan.billing,
    invoice_delivery: plan.invoice_delivery,
  };
}

const intOr = (text: string, fallback: number) => (/^\d+$/.test(text.trim()) ? Number(text) : fallback);

export function ruleOf(d: Draft) {
  return {
    frequency: d.frequency,
    interval: intOr(d.interval, 1),
    weekdays: d.frequency === 'monthly' ? [] : d.weekdays,
    month_day: d.frequency === 'monthly' && d.month_day ? Number(d.month_day) : null,
    start_date: d.start_date,
    start_time: d.start_time,
    end_time: d.end_time,
    until: d.ends === 'until' && d.until ? d.until : null,
    count: d.ends === 'count' && d.count ? intOr(d.count, 1) : null,
    horizon_weeks: intOr(d.horizon_weeks, 8),
    holidays: d.holidays
      .split(/[\s,]+/)
      .map((s) => s.trim())
      .filter(Boolean),
    holiday_rule: d.holiday_rule,
  };
}

export function bodyOf(d: Draft) {
  const price = d.price.trim().replace(',', '.');
  return {
    title: d.title,
    // At a place, the visits go to its address; without one, to the address typed.
    ...(d.property && d.property !== NO_PLACE
      ? placeField(d.property)
      : { ...placeField(d.property), address: d.address.trim() || null }),
    price: price === '' ? null : Number(price),
    notes: d.notes.trim() || null,
    assignees: parseNames(d.assignees),
    billing: d.billing,
    invoice_delivery: d.invoice_delivery,
    ...ruleOf(d),
  };
}

export const PARAMS = [
  'customer_email',
  'customer_name',
  'title',
  'property_id',
  'address',
  'price',
  'assignees',
  'notes',
  'frequency',
  'interval',
  'weekdays',
  'month_day',
  'start_date',
  'start_time',
  'end_time',
  'until',
  'count',
  'horizon_weeks',
  'holidays',
  'holiday_rule',
  'billing',
  'invoice_delivery',
];
