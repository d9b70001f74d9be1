/** Row types of the outbound tables: events, e-mail, reminders, webhooks, idempotency and rate limits. */

import type { z } from 'zod';
import type { WebhookDeliveryStatus as DeliveryStatuses } from '../../shared/schemas/webhook';
import type { MailPurpose } from './schema-requests';

export type MailStatus = 'queued' | 'sending' | 'sent' | 'failed';

export interface MailMessagesTable {
  id: string;
  account_id: string;
  kind: 'invoice' | 'quote' | 'winback';
  customer_id: string | null;
  document_id: string | null;
  to_address: string;
  subject: string;
  body: string;
  offer: string | null;
  status: MailStatus;
  attempts: number;
  next_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
  /** The install that sends it (sync): null means this one, for messages made before sync. */
  sending_node?: string | null;
  /** Set when the message will never go out; its stored status is then 'failed'. */
  cancelled_at: string | null;
  /** Which automatic reminder this is (migration 0009); null for every other message. */
  reminder?: ReminderKind | null;
  /** What a plain message is when not a win-back (migration 0023). */
  purpose?: MailPurpose | null;
}

export type ReminderKind = 'invoice_overdue' | 'appointment' | 'quote_follow_up';

export interface ReminderSendsTable {
  account_id: string;
  kind: ReminderKind;
  /** The invoice, job or quote the reminder is about. */
  subject_id: string;
  /** Which occasion of that record: 'overdue+7d', 'visit@2026-11-24T14:00:00Z', 'follow-up+3d'. */
  occasion: string;
  outcome: 'queued' | 'skipped';
  message_id: string | null;
  created_at: string;
}

export interface EventsTable {
  id: string;
  account_id: string;
  type: string;
  payload: string;
  created_at: string;
}

export interface IdempotencyKeysTable {
  scope: string;
  key: string;
  fingerprint: string;
  status_code: number | null;
  response: string | null;
  created_at: string;
}

export interface RateLimitWindowsTable {
  bucket: string;
  window_start: number;
  count: number;
}

export type WebhookInterface = 'portal' | 'v1';

export interface WebhookEndpointsTable {
  id: string;
  account_id: string;
  interface: WebhookInterface;
  url: string;
  description: string | null;
  /** JSON array of event types, or ["*"]. */
  events: string;
  enabled: 0 | 1;
  disabled_reason: 'manual' | 'consecutive_failures' | null;
  disabled_at: string | null;
  consecutive_failures: number;
  secret: string;
  previous_secret: string | null;
  previous_secret_expires_at: string | null;
  created_at: string;
  updated_at: string;
  /** The install that delivers it (sync): null means this one, for endpoints made before sync. */
  delivering_node?: string | null;
  /** Device-local: the last `event_arrivals.seq` here when it was made; it gets the events after. */
  arrival_mark?: number;
}

export type WebhookDeliveryStatus = z.infer<typeof DeliveryStatuses>;

export interface WebhookDeliveriesTable {
  id: string;
  account_id: string;
  endpoint_id: string;
  event_id: string;
  event_type: string;
  status: WebhookDeliveryStatus;
  attempts: number;
  max_attempts: number;
  next_attempt_at: string | null;
  last_response_code: number | null;
  last_error: string | null;
  redelivery_of: string | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: string;
  delivery_id: string;
  attempt: number;
  status: 'succeeded' | 'failed';
  response_code: number | null;
  response_body: string | null;
  error: string | null;
  duration_ms: number;
  attempted_at: string;
  next_attempt_at: string | null;
}
