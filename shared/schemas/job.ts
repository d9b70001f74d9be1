import { z } from 'zod';
import { DateOnly, Email, ListQuery, Money, Timestamp, text } from './common';
import { customerReferenceFields } from './customer';
import { placeInputField, recordPlaceField } from './property';

export const JOB_STATUSES = ['unscheduled', 'scheduled', 'in_progress', 'completed', 'cancelled'] as const;
export const JobStatus = z.enum(JOB_STATUSES).meta({ id: 'JobStatus' });
export type JobStatus = z.infer<typeof JobStatus>;

/**
 * A timestamp in a request: any ISO 8601 offset is accepted and stored as UTC with second
 * precision, so stored values compare correctly as text.
 */
export const InstantInput = Timestamp.transform((value) =>
  new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z'),
);

/** A list bound: a date (a whole day in the account's time zone) or an exact timestamp. */
export const DateOrInstant = z
  .union([DateOnly, InstantInput])
  .meta({ description: "YYYY-MM-DD (a day in the account's time zone) or an ISO 8601 timestamp." });

export const NonNegativeMoney = Money.refine((n) => n >= 0, { message: 'must not be negative' });

export const PersonName = text().min(1).max(100);

export const CustomerRef = z
  .object({ id: z.string(), name: z.string(), email: z.string().nullable() })
  .meta({ id: 'CustomerRef' });
export type CustomerRef = z.infer<typeof CustomerRef>;

export const Job = z
  .object({
    id: z.string().meta({ example: 'job_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('job'),
    job_number: z.string().meta({ example: 'J-0001' }),
    status: JobStatus,
    customer: CustomerRef,
    title: z.string(),
    scheduled_start: Timestamp.nullable(),
    scheduled_end: Timestamp.nullable(),
    assignees: z.array(z.string()).meta({ description: 'Team member names.' }),
    address: z
      .string()
      .nullable()
      .meta({ description: "Where the work is: its place's address when it names one." }),
    ...recordPlaceField,
    price: Money.nullable().meta({
      description: 'null when the job has no price, or for a crew member the owner does not let see prices.',
    }),
    notes: z.string().nullable(),
    quote_id: z.string().nullable(),
    booking_id: z.string().nullable(),
    service_plan_id: z
      .string()
      .nullable()
      .meta({ description: 'The service plan this job is a visit of (docs/recurring-work.md).' }),
    occurrence_date: DateOnly.nullable().meta({
      description: "A plan visit's rule date, which identifies it in the series even when it was moved.",
    }),
    started_at: Timestamp.nullable(),
    completed_at: Timestamp.nullable(),
    cancelled_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Job' });
export type Job = z.infer<typeof Job>;

type Schedule = { scheduled_start?: string | null; scheduled_end?: string | null };

/** The rule every job write keeps: an end needs a start, and comes after it. */
export function scheduleProblem(schedule: Schedule): string | undefined {
  const { scheduled_start: start, scheduled_end: end } = schedule;
  if (!end) return undefined;
  if (!start) return 'needs a start time too';
  if (end <= start) return 'must be after the start';
  return undefined;
}

function checkSchedule(value: Schedule, ctx: z.RefinementCtx) {
  const problem = scheduleProblem(value);
  if (problem) ctx.addIssue({ code: 'custom', path: ['scheduled_end'], message: problem });
}

const jobFields = {
  title: text().min(1).max(200),
  scheduled_start: InstantInput.nullish(),
  scheduled_end: InstantInput.nullish(),
  assignees: z.array(PersonName).max(20).meta({ description: 'Team member names; new names join the team.' }),
  address: text()
    .max(300)
    .nullish()
    .meta({ description: "Ignored when the job names a place: the address is the place's." }),
  ...placeInputField,
  price: NonNegativeMoney.nullish(),
  notes: text({ multiline: true }).max(5000).nullish(),
};

export const JobCreate = z
  .strictObject({
    ...customerReferenceFields,
    customer_name: text().min(1).max(200).optional(),
    ...jobFields,
    assignees: jobFields.assignees.optional(),
  })
  .superRefine(checkSchedule)
  .meta({ id: 'JobCreate' });
export type JobCreate = z.input<typeof JobCreate>;

/** Reschedule, reassign, retitle. A null scheduled_start unschedules the job. */
export const JobUpdate = z
  .strictObject(jobFields)
  .partial()
  .superRefine((value, ctx) => {
    if (value.scheduled_start !== undefined && value.scheduled_end !== undefined) checkSchedule(value, ctx);
  })
  .meta({ id: 'JobUpdate' });
export type JobUpdate = z.infer<typeof JobUpdate>;

export const JobListQuery = ListQuery.extend({
  status: JobStatus.optional(),
  from: DateOrInstant.optional().meta({ description: 'Jobs scheduled to start at or after this.' }),
  to: DateOrInstant.optional().meta({
    description: 'Jobs scheduled to start before this (a date: that day included).',
  }),
  assignee: PersonName.optional().meta({ description: 'A team member name.' }),
  customer_email: Email.optional(),
});
export type JobListQuery = z.infer<typeof JobListQuery>;
