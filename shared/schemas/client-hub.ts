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
    ]),
    status: z.enum(['pending', 'refused', 'applied', 'handled']),
    customer_id: z.string(),
    customer_name: z.string().nullable(),
    subject_id: z
      .string()
      .meta({ description: 'The quote, invoice, visit (job) or link the action is about.' }),
    payload: z
      .record(z.string(), z.string())
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
