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
