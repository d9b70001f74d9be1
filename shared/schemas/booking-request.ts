import { z } from 'zod';
import { Booking } from './booking';
import { ServiceId, TimeOfDay } from './booking-page';
import { DateOnly, Email, ListQuery, Timestamp, text } from './common';
import { PersonName } from './job';
import { Property } from './property';

export const PHOTO_TYPES = ['image/jpeg', 'image/png', 'image/webp'] as const;
export const MAX_PHOTO_BYTES = 2 * 1024 * 1024;
export const MAX_PHOTOS = 5;

/** A day and time the customer would like, in the business's time zone. */
export const PreferredTime = z.object({ date: DateOnly, time: TimeOfDay }).meta({ id: 'PreferredTime' });
export type PreferredTime = z.infer<typeof PreferredTime>;

export const PhotoUpload = z.strictObject({
  content_type: z.enum(PHOTO_TYPES),
  data: z.string().min(1).meta({ description: 'The image, base64-encoded.' }),
});
export type PhotoUpload = z.infer<typeof PhotoUpload>;

const requestFields = {
  preferred: z
    .array(PreferredTime)
    .min(1)
    .max(3)
    .meta({ description: 'Up to three choices, best first; the first becomes the booking’s proposed time.' }),
  notes: text({ multiline: true }).max(2000).nullish(),
  photos: z.array(PhotoUpload).max(MAX_PHOTOS).optional(),
};

/** A known customer asks for work (the client hub's "request work" form). */
export const WorkRequestInput = z
  .strictObject({
    customer_id: z.string().min(1),
    service_id: ServiceId.optional().meta({ description: 'One of the booking page services.' }),
    service: text()
      .min(1)
      .max(200)
      .optional()
      .meta({ description: 'Free text, when no listed service fits.' }),
    property_id: z.string().min(1).nullish(),
    ...requestFields,
  })
  .refine((v) => (v.service_id === undefined) !== (v.service === undefined), {
    message: 'send service_id or service, not both',
    path: ['service_id'],
  });
export type WorkRequestInput = z.input<typeof WorkRequestInput>;

/** Someone new asks through the public booking page. */
export const PageRequestInput = z.strictObject({
  name: text().min(1).max(200),
  email: Email,
  phone: text().max(40).nullish(),
  address: text().max(300).nullish(),
  service_id: ServiceId,
  ...requestFields,
});
export type PageRequestInput = z.input<typeof PageRequestInput>;

export const REQUEST_STATUSES = [
  'open',
  'confirmed',
  'converted_to_job',
  'converted_to_quote',
  'declined',
  'closed',
] as const;
export const RequestStatus = z.enum(REQUEST_STATUSES).meta({
  id: 'BookingRequestStatus',
  description: 'open until the owner acts; closed when its booking was ended some other way.',
});
export type RequestStatus = z.infer<typeof RequestStatus>;

export const RequestPhoto = z.object({
  id: z.string(),
  content_type: z.enum(PHOTO_TYPES),
  size_bytes: z.number().int(),
});

export const BookingRequest = z
  .object({
    id: z.string().meta({ description: 'The booking’s id (bkg_…).' }),
    object: z.literal('booking_request'),
    status: RequestStatus,
    origin: z.enum(['client_hub', 'booking_page']),
    booking: Booking,
    service_id: z.string().nullable(),
    property: Property.nullable(),
    preferred: z.array(PreferredTime),
    contact: z
      .object({
        name: z.string(),
        email: z.string(),
        phone: z.string().nullable(),
        address: z.string().nullable(),
      })
      .nullable()
      .meta({
        description: 'What a booking-page visitor typed (their customer record is not changed by it).',
      }),
    photos: z.array(RequestPhoto),
    decline_message: z.string().nullable(),
    quote_id: z.string().nullable(),
    decided_at: Timestamp.nullable(),
    created_at: Timestamp,
  })
  .meta({ id: 'BookingRequest' });
export type BookingRequest = z.infer<typeof BookingRequest>;

export const BookingRequestListQuery = ListQuery.extend({ status: RequestStatus.optional() });
export type BookingRequestListQuery = z.infer<typeof BookingRequestListQuery>;

/** Confirming or scheduling a request: another time than the customer's first choice, if the owner picks one. */
export const RequestSchedule = z
  .strictObject({
    start: Timestamp.optional(),
    end: Timestamp.optional(),
    assignees: z.array(PersonName).max(20).optional().meta({ description: 'For the job (convert to job).' }),
  })
  .refine((v) => (v.start === undefined) === (v.end === undefined), {
    message: 'send start and end together',
    path: ['end'],
  })
  .refine((v) => !v.start || !v.end || Date.parse(v.end) > Date.parse(v.start), {
    message: 'end must be after start',
    path: ['end'],
  })
  .meta({ id: 'BookingRequestSchedule' });
export type RequestSchedule = z.infer<typeof RequestSchedule>;

export const RequestDecline = z
  .strictObject({
    message: text({ multiline: true }).min(1).max(2000).meta({ description: 'E-mailed to the customer.' }),
  })
  .meta({ id: 'BookingRequestDecline' });
export type RequestDecline = z.infer<typeof RequestDecline>;

/** What the public page answers, the same whether the e-mail was a customer's already or not. */
export const PageRequestReceipt = z.object({
  object: z.literal('booking_request_receipt'),
  id: z.string(),
  received_at: Timestamp,
});
export type PageRequestReceipt = z.infer<typeof PageRequestReceipt>;
