import { z } from 'zod';
import { DateOnly, ListQuery, QueryBoolean, Timestamp, text } from './common';

const Note = text().max(500).nullable();

export const TimeEntrySource = z.enum(['office', 'clock']).meta({
  description: 'office: typed on the timesheet; clock: clocked in and out.',
});

export const TimeEntry = z
  .object({
    id: z.string().meta({ example: 'te_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('time_entry'),
    member_id: z.string(),
    member_name: z.string(),
    job_id: z.string().nullable(),
    job_number: z.string().nullable(),
    started_at: Timestamp,
    ended_at: Timestamp.nullable().meta({ description: 'null while the member is clocked in.' }),
    minutes: z
      .number()
      .int()
      .nullable()
      .meta({ description: 'Whole minutes worked; null while clocked in.' }),
    source: TimeEntrySource,
    note: z.string().nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'TimeEntry' });
export type TimeEntry = z.infer<typeof TimeEntry>;

export const TimeEntryCreate = z
  .strictObject({
    member_id: z.string().min(1),
    job_id: z.string().min(1).nullable().optional(),
    started_at: Timestamp,
    ended_at: Timestamp,
    note: Note.optional(),
  })
  .meta({ id: 'TimeEntryCreate' });
export type TimeEntryCreate = z.infer<typeof TimeEntryCreate>;

export const TimeEntryUpdate = z
  .strictObject({
    job_id: z.string().min(1).nullable().optional(),
    started_at: Timestamp.optional(),
    ended_at: Timestamp.optional(),
    note: Note.optional(),
  })
  .meta({ id: 'TimeEntryUpdate' });
export type TimeEntryUpdate = z.infer<typeof TimeEntryUpdate>;

export const ClockIn = z
  .strictObject({
    member_id: z.string().min(1),
    job_id: z
      .string()
      .min(1)
      .nullable()
      .optional()
      .meta({ description: 'The visit worked on; none for a day.' }),
    note: Note.optional(),
  })
  .meta({ id: 'ClockIn' });
export type ClockIn = z.infer<typeof ClockIn>;

export const TimeEntryListQuery = ListQuery.extend({
  member_id: z.string().min(1).optional(),
  job_id: z.string().min(1).optional(),
  open: QueryBoolean.optional().meta({
    description: 'true: only entries still open (who is clocked in now).',
  }),
});
export type TimeEntryListQuery = z.infer<typeof TimeEntryListQuery>;

export const TimesheetQuery = z.object({
  from: DateOnly.optional().meta({ description: "First day (account's time zone); default this Monday." }),
  to: DateOnly.optional().meta({
    description: 'Last day, included; default the Sunday after from. At most 62 days.',
  }),
  member_id: z.string().min(1).optional(),
});
export type TimesheetQuery = z.infer<typeof TimesheetQuery>;

export const TimesheetPerson = z.object({
  member: z.object({ id: z.string(), name: z.string() }),
  total_minutes: z.number().int(),
  days: z.array(z.object({ date: DateOnly, minutes: z.number().int() })),
  entries: z.array(TimeEntry).meta({ description: 'In order of start; an open entry counts once it ends.' }),
});
export type TimesheetPerson = z.infer<typeof TimesheetPerson>;

export const Timesheet = z
  .object({
    object: z.literal('timesheet'),
    from: DateOnly,
    to: DateOnly,
    time_zone: z.string(),
    people: z.array(TimesheetPerson).meta({
      description: 'Everyone with hours in the period, alphabetically. A shift counts on the day it started.',
    }),
    total_minutes: z.number().int(),
  })
  .meta({ id: 'Timesheet' });
export type Timesheet = z.infer<typeof Timesheet>;
