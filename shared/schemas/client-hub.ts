import { z } from 'zod';
import { text } from './common';

/** What each client hub form carries (docs/client-hub.md); stored as the action's payload. */
export const ClientApproveForm = z.object({
  name: text().min(1).max(120),
});

export const ClientDeclineForm = z.object({
  reason: text({ multiline: true }).max(1000).default(''),
});

export const ClientChangesForm = z.object({
  message: text({ multiline: true }).min(1).max(2000),
});

/** "I've sent the payment": how and when, in the customer's words (optional). */
export const ClientPaymentNoticeForm = z.object({
  note: text({ multiline: true }).max(1000).default(''),
});

/** Asking to move a visit: why, and the days and times that would suit. */
export const ClientRescheduleForm = z.object({
  message: text({ multiline: true }).min(1).max(2000),
  preferred: text().max(300).default(''),
});

export const CLIENT_ACTION_FORMS = {
  'quote.approve': ClientApproveForm,
  'quote.decline': ClientDeclineForm,
  'quote.changes': ClientChangesForm,
  'invoice.payment_notice': ClientPaymentNoticeForm,
  'visit.reschedule': ClientRescheduleForm,
} as const;

export type ClientActionKind = keyof typeof CLIENT_ACTION_FORMS;

/** A customer asking for a new link after theirs expired: an e-mail address or a phone number. */
export const ClientRelinkForm = z.object({
  contact: text().min(3).max(200),
});

/** A customer's action as the owner sees it (the dashboard's "Customers waiting"). */
export const ClientAction = z
  .object({
    id: z.string(),
    kind: z.enum([
      'quote.approve',
      'quote.decline',
      'quote.changes',
      'invoice.payment_notice',
      'visit.reschedule',
      'link.renew',
      'review.submit',
      'booking.request',
      'booking.page',
    ]),
    status: z.enum(['pending', 'refused', 'applied', 'handled']),
    customer_id: z.string(),
    customer_name: z.string().nullable(),
    subject_id: z
      .string()
      .meta({ description: 'The quote, invoice, visit (job) or link the action is about.' }),
    payload: z
      .record(z.string(), z.unknown())
      .meta({ description: 'What the form carried (name, reason, message, note, preferred).' }),
    outcome: z.string().nullable(),
    ip: z
      .string()
      .nullable()
      .meta({ description: 'The address the customer acted from (the record of an approval).' }),
    created_at: z.string(),
  })
  .meta({ id: 'ClientAction' });
export type ClientAction = z.infer<typeof ClientAction>;

export const ClientActionInbox = z
  .object({ waiting: z.array(ClientAction).meta({ description: 'Newest first, at most 100.' }) })
  .meta({ id: 'ClientActionInbox' });

export const ClientActionResolve = z
  .strictObject({
    reply: text({ multiline: true }).min(1).max(2000).optional().meta({
      description: 'An answer e-mailed to the customer (another time for a visit, say).',
    }),
  })
  .meta({ id: 'ClientActionResolve' });
export type ClientActionResolve = z.infer<typeof ClientActionResolve>;

export const ClientLinkIssued = z
  .object({ url: z.string(), expires_at: z.string() })
  .meta({ id: 'ClientLinkIssued' });

export const ClientLinksRevoked = z.object({ revoked: z.number().int() }).meta({ id: 'ClientLinksRevoked' });

/** A star rating and a comment for a completed visit (the review request's link). */
export const ClientReviewForm = z.object({
  rating: z.coerce
    .number({ message: 'choose from 1 to 5 stars' })
    .int()
    .min(1, 'choose from 1 to 5 stars')
    .max(5, 'choose from 1 to 5 stars'),
  comment: text({ multiline: true }).max(5000).default(''),
});

const optionalField = (max: number) => text().max(max).default('');

/**
 * The preferred days and times of a form: up to three date/time pairs (date1, time1 …), the first
 * required; a pair left empty is skipped.
 */
const preferredFields = {
  date1: optionalField(10),
  time1: optionalField(5),
  date2: optionalField(10),
  time2: optionalField(5),
  date3: optionalField(10),
  time3: optionalField(5),
  notes: text({ multiline: true }).max(2000).default(''),
};

/** The customer page's "request work" form (its photos come as files beside it). */
export const ClientWorkForm = z.object({
  service_id: optionalField(60),
  service: optionalField(200),
  property_id: optionalField(60),
  ...preferredFields,
});
export type ClientWorkForm = z.infer<typeof ClientWorkForm>;

/** The public booking page's form. */
export const PublicBookingForm = z.object({
  service_id: optionalField(60),
  name: optionalField(200),
  email: optionalField(254),
  phone: optionalField(40),
  address: optionalField(300),
  ...preferredFields,
});
export type PublicBookingForm = z.infer<typeof PublicBookingForm>;

/** The filled date/time pairs of a form, best first. */
export function preferredOf(form: z.infer<z.ZodObject<typeof preferredFields>>) {
  return [
    [form.date1, form.time1],
    [form.date2, form.time2],
    [form.date3, form.time3],
  ]
    .filter(([date, time]) => date || time)
    .map(([date, time]) => ({ date: date!, time: time! }));
}
