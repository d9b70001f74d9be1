import { z } from 'zod';
import { DateOnly, Email, Timestamp, text } from './common';
import { JobStatus, PersonName } from './job';

/**
 * What a signed-in person may do (docs/crew-design.md): owner everything; office everything but
 * plans, API keys, backups, sync and team roles; crew their own visits.
 */
export const MemberRole = z.enum(['owner', 'office', 'crew']).meta({ id: 'MemberRole' });
export type MemberRole = z.infer<typeof MemberRole>;

export const TeamMember = z
  .object({
    id: z.string().meta({ example: 'tm_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('team_member'),
    name: z.string(),
    open_jobs: z.number().int().meta({ description: 'Assigned jobs not yet completed or cancelled.' }),
    completed_jobs: z.number().int(),
    active: z
      .boolean()
      .meta({ description: 'false once deactivated: kept on past jobs, not offered for new ones.' }),
    created_at: Timestamp,
    role: MemberRole,
    email: z.string().nullable(),
    phone: z.string().nullable(),
    can_see_prices: z.boolean().meta({ description: 'Crew only: whether prices show on their visits.' }),
    live_sessions: z.number().int().meta({ description: 'Browsers signed in as this member now.' }),
    passkeys: z.number().int().meta({ description: 'Passkeys not revoked.' }),
  })
  .meta({ id: 'TeamMember' });
export type TeamMember = z.infer<typeof TeamMember>;

/** How to reach a member and what they may do; role and can_see_prices are the owner's to set. */
const MemberDetails = {
  role: MemberRole.optional().meta({ description: 'Owner only. New members are crew.' }),
  email: Email.nullable().optional().meta({ description: 'Where their invitation can be e-mailed.' }),
  phone: text().min(3).max(40).nullable().optional(),
  can_see_prices: z.boolean().optional().meta({ description: 'Owner only.' }),
};

export const TeamMemberCreate = z
  .strictObject({ name: PersonName, ...MemberDetails })
  .meta({ id: 'TeamMemberCreate' });
export type TeamMemberCreate = z.infer<typeof TeamMemberCreate>;

/**
 * Rename, change details or role, deactivate or bring back; deactivating someone with open jobs
 * needs `reassign_to`, and ends their sessions.
 */
export const TeamMemberUpdate = z
  .strictObject({
    name: PersonName.optional(),
    ...MemberDetails,
    active: z.boolean().optional(),
    reassign_to: z.string().optional().meta({
      description: "With active: false, the member (tm_…) who takes over this member's open jobs.",
    }),
  })
  .meta({ id: 'TeamMemberUpdate' });
export type TeamMemberUpdate = z.infer<typeof TeamMemberUpdate>;

export const TeamMemberRemoval = z.object({
  reassign_to: z.string().optional().meta({
    description: "The member (tm_…) who takes over the removed member's open jobs.",
  }),
});

export const ScheduleQuery = z.object({
  from: DateOnly.optional().meta({ description: "First day (account's time zone); default this Monday." }),
  to: DateOnly.optional().meta({
    description: 'Last day, included; default the Sunday after from. At most 62 days.',
  }),
});
export type ScheduleQuery = z.infer<typeof ScheduleQuery>;

export const ScheduledJob = z.object({
  id: z.string(),
  job_number: z.string(),
  title: z.string(),
  customer_name: z.string(),
  address: z.string().nullable(),
  property_id: z.string().nullable(),
  place_label: z.string().nullable().meta({ example: 'Building B' }),
  access_notes: z
    .string()
    .nullable()
    .meta({ description: 'Gate code, key safe, pets, alarm: for the crew.' }),
  start: Timestamp,
  end: Timestamp.nullable(),
  status: JobStatus,
});
export type ScheduledJob = z.infer<typeof ScheduledJob>;

export const ScheduleDay = z.object({ date: DateOnly, jobs: z.array(ScheduledJob) });

export const ScheduleGroup = z.object({
  member: z.object({ id: z.string(), name: z.string() }).nullable().meta({
    description: 'null for the jobs nobody is assigned to.',
  }),
  days: z.array(ScheduleDay),
  job_count: z.number().int(),
});
export type ScheduleGroup = z.infer<typeof ScheduleGroup>;

export const TeamSchedule = z
  .object({
    object: z.literal('team_schedule'),
    from: DateOnly,
    to: DateOnly,
    timezone: z.string(),
    members: z.array(ScheduleGroup),
    unassigned: ScheduleGroup,
  })
  .meta({ id: 'TeamSchedule' });
export type TeamSchedule = z.infer<typeof TeamSchedule>;
