import { z } from 'zod';
import { Email, ListQuery, Timestamp, text } from './common';
import { customerReferenceFields } from './customer';
import { CustomerRef, DateOrInstant, InstantInput, PersonName } from './job';
import { placeInputField, recordPlaceField } from './property';

export const BOOKING_STATUSES = ['pending', 'confirmed', 'completed', 'cancelled', 'no_show'] as const;
export const BookingStatus = z.enum(BOOKING_STATUSES).meta({ id: 'BookingStatus' });
export type BookingStatus = z.infer<typeof BookingStatus>;

export const Booking = z
  .object({
    id: z.string().meta({ example: 'bkg_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('booking'),
    status: BookingStatus,
    customer: CustomerRef,
    service: z.string(),
    start: Timestamp,
    end: Timestamp,
    notes: z.string().nullable(),
    ...recordPlaceField,
    source: z.string().nullable().meta({ description: 'Where it came from: portal, v1, widget, phone, …' }),
    job_id: z.string().nullable().meta({ description: 'The job created when the booking was confirmed.' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Booking' });
export type Booking = z.infer<typeof Booking>;

function endAfterStart(
  value: { start?: string | undefined; end?: string | undefined },
  ctx: z.RefinementCtx,
) {
  if (value.start && value.end && value.end <= value.start) {
    ctx.addIssue({ code: 'custom', path: ['end'], message: 'end must be after start' });
  }
}

const bookingFields = {
  service: text().min(1).max(200),
  start: InstantInput,
  end: InstantInput,
  notes: text({ multiline: true }).max(5000).nullish(),
  ...placeInputField,
};

export const BookingCreate = z
  .strictObject({
    ...customerReferenceFields,
    customer_name: text().min(1).max(200).optional(),
    ...bookingFields,
    source: text().min(1).max(40).optional().meta({ description: 'Defaults to the API used.' }),
  })
  .superRefine(endAfterStart)
  .meta({ id: 'BookingCreate' });
export type BookingCreate = z.input<typeof BookingCreate>;

export const BookingUpdate = z
  .strictObject(bookingFields)
  .partial()
  .superRefine(endAfterStart)
  .meta({ id: 'BookingUpdate' });
export type BookingUpdate = z.infer<typeof BookingUpdate>;

export const BookingConfirm = z
  .strictObject({
    create_job: z
      .boolean()
      .default(true)
      .meta({ description: 'Create a scheduled job for it (default true).' }),
    assignees: z.array(PersonName).max(20).optional(),
    address: text().max(300).nullish(),
  })
  .meta({ id: 'BookingConfirm' });
export type BookingConfirm = z.input<typeof BookingConfirm>;

export const BookingListQuery = ListQuery.extend({
  status: BookingStatus.optional(),
  from: DateOrInstant.optional().meta({ description: 'Bookings starting at or after this.' }),
  to: DateOrInstant.optional().meta({
    description: 'Bookings starting before this (a date: that day included).',
  }),
  customer_email: Email.optional(),
});
export type BookingListQuery = z.infer<typeof BookingListQuery>;
