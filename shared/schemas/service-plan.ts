import { z } from 'zod';
import { WEEKDAY_CODES } from '../recurrence';
import { DateOnly, Email, ListQuery, Money, Timestamp, text } from './common';
import { customerReferenceFields } from './customer';
import { CustomerRef, NonNegativeMoney, PersonName } from './job';
import { placeInputField, recordPlaceField } from './property';

/** Service plans: recurring visits of one customer (docs/recurring-work.md). */

export const PLAN_STATUSES = ['active', 'ended'] as const;
export const PlanStatus = z.enum(PLAN_STATUSES).meta({ id: 'ServicePlanStatus' });
export type PlanStatus = z.infer<typeof PlanStatus>;

export const PlanFrequency = z
  .enum(['daily', 'weekly', 'monthly'])
  .meta({ id: 'ServicePlanFrequency', description: 'RRULE FREQ.' });
export const Weekday = z.enum(WEEKDAY_CODES).meta({ id: 'Weekday', description: 'RFC 5545 weekday code.' });
export const PlanBilling = z.enum(['none', 'per_visit', 'per_period']).meta({
  id: 'ServicePlanBilling',
  description:
    'none: no invoices; per_visit: an invoice when a visit completes; per_period: one invoice per calendar month for the visits completed in it, made after the month ends.',
});
export const InvoiceDelivery = z.enum(['draft', 'send']).meta({
  id: 'ServicePlanInvoiceDelivery',
  description:
    'draft: invoices wait for the owner; send: they are e-mailed at once (the invoice reads sent once the e-mail went out).',
});

const ClockTime = z
  .string()
  .regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'must be a time of day, HH:MM')
  .meta({ example: '09:00' });

const ruleFields = {
  frequency: PlanFrequency,
  interval: z.number().int().min(1).max(52).meta({ description: 'Every N days, weeks or months.' }),
  weekdays: z
    .array(Weekday)
    .max(7)
    .meta({ description: "Daily and weekly plans: the weekdays (weekly default: the start date's)." }),
  month_day: z
    .number()
    .int()
    .refine((n) => n === -1 || (n >= 1 && n <= 31), { message: 'must be 1–31, or -1 for the last day' })
    .nullable()
    .meta({
      description:
        "Monthly plans: the day of the month, or -1 for the last day. As in RFC 5545, months without that day are skipped (the 31st skips 30-day months). Default: the start date's day.",
    }),
  start_date: DateOnly.meta({ description: 'The first day the rule may fall on (DTSTART).' }),
  start_time: ClockTime.meta({ description: "Visit start, wall clock in the business's time zone." }),
  end_time: ClockTime.meta({ description: 'Visit end, same day.', example: '11:00' }),
  until: DateOnly.nullable().meta({ description: 'Last day a visit may fall on (inclusive).' }),
  count: z.number().int().min(1).max(1000).nullable().meta({
    description: 'Number of occurrences of the rule, counted from start_date (skipped holidays count).',
  }),
  horizon_weeks: z
    .number()
    .int()
    .min(1)
    .max(52)
    .meta({ description: 'How far ahead visits exist as jobs; the schedule extends it daily.' }),
  holidays: z.array(DateOnly).max(200).meta({ description: 'Dates with no visit.' }),
  holiday_rule: z
    .enum(['skip', 'move'])
    .meta({ description: 'A visit on a holiday is skipped, or moved to the next day that is not one.' }),
};

/** The parts of a rule a new plan or a preview may leave out, with what leaving each out means. */
const ruleDefaults = {
  interval: ruleFields.interval.default(1),
  weekdays: ruleFields.weekdays.default([]),
  month_day: ruleFields.month_day.default(null),
  until: ruleFields.until.default(null),
  count: ruleFields.count.default(null),
  horizon_weeks: ruleFields.horizon_weeks.default(8),
  holidays: ruleFields.holidays.default([]),
  holiday_rule: ruleFields.holiday_rule.default('skip'),
};

const planFields = {
  title: text().min(1).max(200),
  address: text().max(300).nullable(),
  ...placeInputField,
  price: NonNegativeMoney.nullable().meta({ description: 'Price of one visit.' }),
  notes: text({ multiline: true }).max(5000).nullable(),
  assignees: z.array(PersonName).max(20).meta({ description: 'Team member names; new names join the team.' }),
  billing: PlanBilling,
  invoice_delivery: InvoiceDelivery,
  ...ruleFields,
};

type RuleLike = {
  frequency?: string;
  weekdays?: string[];
  month_day?: number | null;
  start_time?: string;
  end_time?: string;
  until?: string | null;
  count?: number | null;
  start_date?: string;
  billing?: string;
  price?: number | null;
};

/** The cross-field rules of a plan, on a full plan (create) or on a plan with a patch applied. */
export function planProblems(value: RuleLike): Array<{ path: string; message: string }> {
  const out: Array<{ path: string; message: string }> = [];
  if (value.start_time && value.end_time && value.end_time <= value.start_time)
    out.push({ path: 'end_time', message: 'must be after start_time (visits end the day they start)' });
  if (value.until != null && value.count != null)
    out.push({ path: 'count', message: 'send until or count, not both' });
  if (value.until != null && value.start_date && value.until < value.start_date)
    out.push({ path: 'until', message: 'must not be before start_date' });
  if (value.frequency === 'monthly' && value.weekdays?.length)
    out.push({ path: 'weekdays', message: 'monthly plans fall on a day of the month (month_day)' });
  if (value.frequency !== undefined && value.frequency !== 'monthly' && value.month_day != null)
    out.push({ path: 'month_day', message: 'only monthly plans take a day of the month' });
  if (value.billing && value.billing !== 'none' && value.price == null)
    out.push({ path: 'price', message: 'a billed plan needs a price per visit' });
  return out;
}

function refinePlan(value: RuleLike, ctx: z.RefinementCtx) {
  for (const problem of planProblems(value))
    ctx.addIssue({ code: 'custom', path: [problem.path], message: problem.message });
}

/** The rule alone: what the preview takes. */
export const PlanRuleInput = z
  .strictObject({
    ...ruleFields,
    ...ruleDefaults,
    visits: z.number().int().min(1).max(60).default(10).meta({ description: 'How many visits to show.' }),
  })
  .superRefine(refinePlan)
  .meta({ id: 'ServicePlanPreviewRequest' });
export type PlanRuleInput = z.input<typeof PlanRuleInput>;

export const ServicePlanCreate = z
  .strictObject({
    ...customerReferenceFields,
    customer_name: text().min(1).max(200).optional(),
    ...planFields,
    address: planFields.address.optional().meta({
      description:
        "Ignored when the plan names a place (its visits go to the place's address). Default: the customer's address.",
    }),
    price: planFields.price.optional(),
    notes: planFields.notes.optional(),
    assignees: planFields.assignees.default([]),
    billing: planFields.billing.default('none'),
    invoice_delivery: planFields.invoice_delivery.default('draft'),
    ...ruleDefaults,
  })
  .superRefine(refinePlan)
  .meta({ id: 'ServicePlanCreate' });
export type ServicePlanCreate = z.input<typeof ServicePlanCreate>;

/** Any field of a plan; the rule is checked again with the patch applied. Future untouched visits follow. */
export const ServicePlanUpdate = z.strictObject(planFields).partial().meta({ id: 'ServicePlanUpdate' });
export type ServicePlanUpdate = z.infer<typeof ServicePlanUpdate>;

export const ServicePlanEnd = z
  .strictObject({
    reason: text().max(200).optional(),
  })
  .meta({ id: 'ServicePlanEnd' });

export const PlanVisitPreview = z
  .object({
    occurrence: DateOnly.meta({ description: 'The rule date the visit stands for.' }),
    date: DateOnly.meta({ description: 'The day it happens (a holiday may move it).' }),
    start: Timestamp,
    end: Timestamp,
    moved: z.boolean(),
  })
  .meta({ id: 'ServicePlanVisitPreview' });

export const ServicePlanPreview = z
  .object({
    summary: z.string().meta({ example: 'Every 2 weeks on Tuesday, 9:00–11:00, until 30 Jun 2027' }),
    rrule: z.string().meta({ example: 'DTSTART:20261201T000000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2;BYDAY=TU' }),
    time_zone: z.string(),
    visits: z.array(PlanVisitPreview),
  })
  .meta({ id: 'ServicePlanPreview' });
export type ServicePlanPreview = z.infer<typeof ServicePlanPreview>;

export const ServicePlan = z
  .object({
    id: z.string().meta({ example: 'plan_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('service_plan'),
    status: PlanStatus,
    customer: CustomerRef,
    title: z.string(),
    address: z.string().nullable(),
    ...recordPlaceField,
    price: Money.nullable(),
    notes: z.string().nullable(),
    assignees: z.array(z.string()),
    billing: PlanBilling,
    invoice_delivery: InvoiceDelivery,
    frequency: PlanFrequency,
    interval: z.number().int(),
    weekdays: z.array(Weekday),
    month_day: z.number().int().nullable(),
    start_date: DateOnly,
    start_time: z.string(),
    end_time: z.string(),
    until: DateOnly.nullable(),
    count: z.number().int().nullable(),
    horizon_weeks: z.number().int(),
    holidays: z.array(DateOnly),
    holiday_rule: z.enum(['skip', 'move']),
    summary: z.string().meta({ description: 'The rule in words.' }),
    rrule: z.string().meta({ description: 'The rule as RFC 5545 text (floating dates).' }),
    time_zone: z.string().meta({ description: "The business's zone, which the times are in." }),
    next_visit: Timestamp.nullable().meta({ description: 'Start of the next open visit.' }),
    ended_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'ServicePlan' });
export type ServicePlan = z.infer<typeof ServicePlan>;

export const ServicePlanListQuery = ListQuery.extend({
  status: PlanStatus.optional(),
  customer_email: Email.optional(),
});
export type ServicePlanListQuery = z.infer<typeof ServicePlanListQuery>;

export const PlanVisitsQuery = z.object({
  when: z
    .enum(['upcoming', 'past', 'all'])
    .default('upcoming')
    .meta({ description: 'upcoming: starting now or later; past: before now, newest first.' }),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});
