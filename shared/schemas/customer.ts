import { z } from 'zod';
import { Email, ListQuery, Money, QueryBoolean, Timestamp, text } from './common';

export const CustomerNote = z.object({
  id: z.string(),
  text: z.string(),
  created_at: Timestamp,
});

export const Customer = z
  .object({
    id: z.string().meta({ example: 'cus_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('customer'),
    name: z.string(),
    email: z
      .string()
      .nullable()
      .meta({ description: 'null for a customer reached by phone or address only.' }),
    phone: z.string().nullable(),
    address: z.string().nullable(),
    tags: z.array(z.string()),
    notes: z.array(CustomerNote),
    lifetime_value: Money.meta({ description: 'Payments received from this customer.' }),
    last_job_at: Timestamp.nullable().meta({ description: 'When their last job was completed.' }),
    lapsed: z
      .boolean()
      .meta({ description: 'No completed job for the win-back period (config winback_after_days).' }),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Customer' });
export type Customer = z.infer<typeof Customer>;

/** A customer carries at most this many tags, however many requests added them. */
export const MAX_TAGS = 50;

export const Tag = text()
  .toLowerCase()
  .min(1)
  .max(40)
  .regex(/^[\p{L}\p{N}][\p{L}\p{N} _-]*$/u, 'tags are letters, digits, spaces, - and _');

/**
 * How a create body names its customer: `customer_id` (every customer has one), or
 * `customer_email` (created when unknown). One of them is required; the server says so (400).
 */
export const customerReferenceFields = {
  customer_id: z.string().min(1).optional().meta({
    description: 'The customer (cus_…); the only way to name one without e-mail. Or customer_email.',
  }),
  customer_email: Email.optional().meta({
    description: 'The customer by e-mail, created if new; or name it by customer_id.',
  }),
};

/** What a customer without any of e-mail, phone and address is told. */
export const NO_WAY_TO_REACH =
  'A customer needs at least one way to reach them: an e-mail, a phone or an address';

export const CustomerCreate = z
  .strictObject({
    name: text().min(1).max(200),
    email: Email.nullish().meta({ description: 'Optional: a phone or an address will do.' }),
    phone: text().max(40).nullish(),
    address: text().max(300).nullish(),
    tags: z.array(Tag).max(MAX_TAGS).optional(),
  })
  .refine((c) => Boolean(c.email || c.phone || c.address), { message: NO_WAY_TO_REACH, path: ['email'] })
  .meta({ id: 'CustomerCreate' });
export type CustomerCreate = z.infer<typeof CustomerCreate>;

export const CustomerUpdate = z
  .strictObject({
    name: text().min(1).max(200),
    email: Email.nullable().meta({ description: 'null removes it, while a phone or an address remains.' }),
    phone: text().max(40).nullable(),
    address: text().max(300).nullable(),
  })
  .partial()
  .meta({ id: 'CustomerUpdate' });
export type CustomerUpdate = z.infer<typeof CustomerUpdate>;

export const CustomerListQuery = ListQuery.extend({
  q: text().min(1).max(100).optional().meta({ description: 'Matches name, e-mail or phone.' }),
  tag: Tag.optional(),
  lapsed: QueryBoolean.optional(),
});
export type CustomerListQuery = z.infer<typeof CustomerListQuery>;

export const DuplicatesQuery = z.object({
  name: text().max(200).optional(),
  email: text().max(254).optional(),
  phone: text().max(40).optional(),
});

export const PossibleDuplicate = z
  .object({
    customer: Customer,
    reason: z.enum(['same_name_and_phone', 'similar_email']).meta({
      description:
        'same_name_and_phone: the same name and the same phone digits; similar_email: one letter off.',
    }),
  })
  .meta({ id: 'PossibleDuplicate' });
export type PossibleDuplicate = z.infer<typeof PossibleDuplicate>;

export const MergeBody = z
  .strictObject({
    from: z.string().min(1).meta({
      description: 'The customer (id or e-mail) merged into this one and then removed.',
      example: 'cus_01jd3k5x2m9q7r8s6t4v2w0y1z',
    }),
  })
  .meta({ id: 'MergeBody' });

export const TagsBody = z.strictObject({ tags: z.array(Tag).min(1).max(MAX_TAGS) }).meta({ id: 'TagsBody' });
export const NoteBody = z
  .strictObject({ text: text({ multiline: true }).min(1).max(5000) })
  .meta({ id: 'NoteBody' });
export const WinbackBody = z
  .strictObject({
    offer: text().max(500).optional(),
    message: text({ multiline: true }).max(5000).optional(),
  })
  .meta({ id: 'WinbackBody' });

/** What an e-mail is: a document, a win-back, a reminder, or one of the messages customers' actions bring. */
export const MAIL_KINDS = [
  'invoice',
  'quote',
  'winback',
  'reminder',
  'review_request',
  'owner_alert',
  'booking_reply',
  'client_hub_reply',
  'on_my_way',
  'member_invite',
] as const;

export const MailMessage = z
  .object({
    id: z.string(),
    object: z.literal('mail_message'),
    kind: z.enum(MAIL_KINDS),
    reminder: z
      .enum(['invoice_overdue', 'appointment', 'quote_follow_up'])
      .nullable()
      .meta({ description: 'Which automatic reminder this is (kind reminder); null for other messages.' }),
    to: z.string(),
    subject: z.string(),
    body: z.string(),
    status: z.enum(['queued', 'sending', 'sent', 'failed', 'cancelled']).meta({
      description: 'cancelled: it will never go out; last_error says why.',
    }),
    attempts: z.number().int(),
    last_error: z.string().nullable(),
    created_at: Timestamp,
    sent_at: Timestamp.nullable(),
  })
  .meta({ id: 'MailMessage' });
export type MailMessage = z.infer<typeof MailMessage>;
