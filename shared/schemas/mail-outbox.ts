import { z } from 'zod';
import { ListQuery, Timestamp } from './common';
import { MAIL_KINDS, MailMessage } from './customer';

export const MailStatus = z.enum(['queued', 'sending', 'sent', 'failed', 'cancelled']);

/** A message of the mail outbox as Settings > E-mail lists it: with why it waits, if it does. */
export const OutboxMessage = MailMessage.extend({
  document_id: z.string().nullable().meta({
    description:
      'The invoice (inv_…) or quote (quo_…) it sends or reminds of; for a visit reminder, the job (job_…).',
  }),
  next_attempt_at: Timestamp.nullable().meta({
    description: 'When it is tried next; null once sent or failed.',
  }),
  waiting_reason: z
    .enum(['smtp_not_configured', 'offline'])
    .nullable()
    .meta({ description: 'Why a queued message is not going out; null when nothing holds it back.' }),
}).meta({ id: 'OutboxMessage' });
export type OutboxMessage = z.infer<typeof OutboxMessage>;

export const MessageListQuery = ListQuery.extend({
  status: MailStatus.optional(),
  document_id: z.string().optional().meta({ description: 'Only the e-mails of one invoice or quote.' }),
  kind: z
    .enum(MAIL_KINDS)
    .optional()
    .meta({ description: 'Only e-mails of this kind (reminder: the automatic reminders).' }),
});
export type MessageListQuery = z.infer<typeof MessageListQuery>;

/** GET /reminders: the automatic reminders' e-mails, newest first. */
export const ReminderListQuery = MessageListQuery.omit({ kind: true });
export type ReminderListQuery = z.infer<typeof ReminderListQuery>;
