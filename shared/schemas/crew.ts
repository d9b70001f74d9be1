import { z } from 'zod';
import { Timestamp, text } from './common';

/** An id the phone makes (ULID layout, like the server's), so a resent action is the same row. */
const phoneId = (prefix: string) =>
  z
    .string()
    .regex(new RegExp(`^${prefix}_[0-9a-hjkmnp-tv-z]{26}$`), `must be a ${prefix}_ id made on the phone`);

export const CrewActionId = phoneId('cra');
export const JobPhotoId = phoneId('jph');

/** The largest photo a server keeps, after the phone downscaled it (docs/crew.md, "The phone"). */
export const PHOTO_MAX_BYTES = 2 * 1024 * 1024;
/** The phone downscales every photo to this longest side before sending it. */
export const PHOTO_LONGEST_SIDE = 1600;

export const CrewCompletePayload = z.strictObject({
  checklist: z
    .array(z.strictObject({ item: text().min(1).max(200), done: z.boolean() }))
    .max(50)
    .default([]),
  note: text({ multiline: true }).max(2000).nullable().default(null),
  photo_ids: z.array(JobPhotoId).max(20).default([]),
  signed_by: text().max(120).nullable().default(null),
});
export type CrewCompletePayload = z.infer<typeof CrewCompletePayload>;

const base = { id: CrewActionId, done_at: Timestamp };

/** POST /crew/api/actions: one thing the member did, with the id and time the phone gave it. */
export const CrewActionInput = z.discriminatedUnion('kind', [
  z.strictObject({
    ...base,
    kind: z.literal('on_my_way'),
    job_id: z.string().min(1),
    payload: z
      .strictObject({ eta_minutes: z.number().int().min(1).max(600).default(30) })
      .default({ eta_minutes: 30 }),
  }),
  z.strictObject({
    ...base,
    kind: z.literal('start'),
    job_id: z.string().min(1),
    payload: z.strictObject({}).default({}),
  }),
  z.strictObject({
    ...base,
    kind: z.literal('complete'),
    job_id: z.string().min(1),
    payload: CrewCompletePayload,
  }),
  z.strictObject({
    ...base,
    kind: z.literal('clock_in'),
    job_id: z.string().min(1).nullable().default(null),
    payload: z.strictObject({}).default({}),
  }),
  z.strictObject({
    ...base,
    kind: z.literal('clock_out'),
    job_id: z.null().default(null),
    payload: z.strictObject({}).default({}),
  }),
]);
export type CrewActionInput = z.infer<typeof CrewActionInput>;

/** POST /crew/api/photos: a JPEG the phone downscaled, base64. */
export const CrewPhotoInput = z.strictObject({
  id: JobPhotoId,
  job_id: z.string().min(1),
  content_type: z.literal('image/jpeg'),
  data: z.string().regex(/^[A-Za-z0-9+/]*={0,2}$/, 'must be base64'),
});
export type CrewPhotoInput = z.infer<typeof CrewPhotoInput>;

/** A photo the crew took at a visit, as the owner's job page lists it (the bytes come apart). */
export const JobPhoto = z
  .object({
    id: z.string(),
    job_id: z.string(),
    taken_at: Timestamp.meta({ description: 'When the server kept it, sent from the phone.' }),
    member: z
      .object({ id: z.string(), name: z.string() })
      .nullable()
      .meta({ description: 'Who took it; null once they left the team records.' }),
    size_bytes: z.number().int(),
    content_type: z.string(),
  })
  .meta({ id: 'JobPhoto' });
export type JobPhoto = z.infer<typeof JobPhoto>;
