import { z } from 'zod';
import { ListQuery, Timestamp } from './common';

/** Events each interface delivers (spec part 6); webhook.test goes only to the endpoint being tested. */
export const PORTAL_EVENT_TYPES = [
  'booking.created',
  'job.completed',
  'invoice.paid',
  'invoice.payment_recorded',
  'review.received',
  'customer.created',
  'property.created',
  'property.updated',
  'property.archived',
  'quote.accepted',
  'quote.declined',
  'service_plan.created',
  'service_plan.updated',
  'service_plan.ended',
  'service_plan.deleted',
  'reminder.sent',
  'webhook.test',
] as const;

export const V1_EVENT_TYPES = [
  'booking.created',
  'job.completed',
  'invoice.paid',
  'review.received',
  'quote.accepted',
  'customer.created',
  'property.created',
  'property.updated',
  'property.archived',
  'service_plan.created',
  'service_plan.updated',
  'service_plan.ended',
  'service_plan.deleted',
  'reminder.sent',
  'webhook.test',
] as const;

export type WebhookInterface = 'portal' | 'v1';

export const EVENT_TYPES_BY_INTERFACE: Record<WebhookInterface, readonly string[]> = {
  portal: PORTAL_EVENT_TYPES,
  v1: V1_EVENT_TYPES,
};

/** The v1 events a receiver can catch up on with GET /api/v1/events (test events are not business events). */
export const V1_LISTED_EVENT_TYPES = V1_EVENT_TYPES.filter((t) => t !== 'webhook.test');

export const Event = z
  .object({
    id: z.string().meta({ example: 'evt_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    type: z.string().meta({ example: 'invoice.paid' }),
    created_at: Timestamp,
    account_id: z.string(),
    data: z.object({
      object: z
        .unknown()
        .meta({ description: 'The resource as its API returns it, at the time of the event.' }),
    }),
  })
  .meta({ id: 'Event' });
export type Event = z.infer<typeof Event>;

export const EventListQuery = ListQuery.extend({
  type: z
    .enum(V1_LISTED_EVENT_TYPES as [string, ...string[]])
    .optional()
    .meta({ description: 'Only events of this type.' }),
  created_after: Timestamp.transform((value) => new Date(value).toISOString().replace(/\.\d{3}Z$/, 'Z'))
    .optional()
    .meta({ description: 'Only events created at or after this instant.', example: '2026-11-01T00:00:00Z' }),
});
export type EventListQuery = z.infer<typeof EventListQuery>;
