import { z } from 'zod';
import { ListQuery, Timestamp, text } from './common';
import { EVENT_TYPES_BY_INTERFACE, type WebhookInterface } from './event';

/** Who sends an endpoint's deliveries (docs/sync.md, "Webhooks delivered by the hub"). */
export const WebhookDeliveredBy = z.enum(['node', 'hub']).meta({
  description:
    '"node" (the default): the install the endpoint was created on; "hub": the business\'s hosted sync hub, for every device\'s events (needs sync to a hosted hub, chosen at creation).',
});

export const WebhookEndpoint = z
  .object({
    id: z.string().meta({ example: 'whk_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('webhook_endpoint'),
    interface: z.enum(['portal', 'v1']),
    url: z.string(),
    description: z.string().nullable(),
    events: z.array(z.string()).meta({ description: '["*"] for every event of the interface.' }),
    enabled: z.boolean(),
    disabled_reason: z.enum(['manual', 'consecutive_failures']).nullable(),
    disabled_at: Timestamp.nullable(),
    consecutive_failures: z.number().int().meta({
      description: 'Failed attempts since the last success; 20 disable a v1 endpoint.',
    }),
    previous_secret_expires_at: Timestamp.nullable().meta({
      description: 'After a secret rotation, until when deliveries are also signed with the previous secret.',
    }),
    delivered_by: WebhookDeliveredBy,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpoint>;

/** An endpoint with its signing secret: returned once, when it is created or its secret rotated. */
export const WebhookEndpointWithSecret = WebhookEndpoint.extend({
  secret: z.string().meta({ example: 'whsec_3kP9xQ2mV7nR4tY8wZ1aB5cD6eF0gH2j' }),
}).meta({ id: 'WebhookEndpointWithSecret' });
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecret>;

const WebhookUrl = z
  .url({ protocol: /^https?$/ })
  .max(2000)
  .meta({
    description:
      'http or https; http is allowed because receivers of a local install often run on localhost.',
    example: 'https://example.com/hooks/shopdesk',
  });

/** The events field of a create or update: known events of the endpoint's interface, or "*". */
function eventsField(iface: WebhookInterface) {
  const known = EVENT_TYPES_BY_INTERFACE[iface];
  return z
    .array(z.string())
    .min(1)
    .max(known.length + 1)
    .refine((events) => events.every((e) => e === '*' || known.includes(e)), {
      message: `must be "*" or events of this interface: ${known.join(', ')}`,
    })
    .refine((events) => !events.includes('*') || events.length === 1, {
      message: '"*" already means every event; send it alone',
    })
    .meta({ description: `"*" (every event) or some of: ${known.join(', ')}.`, example: ['*'] });
}

function webhookCreateSchema(iface: WebhookInterface) {
  return z
    .strictObject({
      url: WebhookUrl,
      events: eventsField(iface).default(['*']),
      description: text().max(500).nullish(),
      enabled: z.boolean().default(true),
      delivered_by: WebhookDeliveredBy.optional(),
    })
    .meta({ id: `WebhookCreate${iface === 'v1' ? 'V1' : 'Portal'}` });
}
/** The create body of each interface (their event lists differ). */
export const WebhookCreate = { portal: webhookCreateSchema('portal'), v1: webhookCreateSchema('v1') };
export type WebhookCreate = z.infer<ReturnType<typeof webhookCreateSchema>>;

function webhookUpdateSchema(iface: WebhookInterface) {
  return z
    .strictObject({
      url: WebhookUrl,
      events: eventsField(iface),
      description: text().max(500).nullable(),
      enabled: z.boolean(),
    })
    .partial()
    .meta({ id: `WebhookUpdate${iface === 'v1' ? 'V1' : 'Portal'}` });
}
export const WebhookUpdate = { portal: webhookUpdateSchema('portal'), v1: webhookUpdateSchema('v1') };
export type WebhookUpdate = z.infer<ReturnType<typeof webhookUpdateSchema>>;

export const WebhookAttempt = z
  .object({
    attempt: z.number().int().meta({ description: '1 for the first attempt.' }),
    status: z.enum(['succeeded', 'failed']),
    response_code: z.number().int().nullable(),
    response_body: z.string().nullable().meta({
      description: 'The first 2 KB of what the receiver answered; shown on the portal API only (null on v1).',
    }),
    error: z
      .string()
      .nullable()
      .meta({ description: 'Why the attempt failed: status, timeout or connection error.' }),
    duration_ms: z.number().int(),
    attempted_at: Timestamp,
    next_attempt_at: Timestamp.nullable().meta({
      description: 'When the next attempt was scheduled; null if none.',
    }),
  })
  .meta({ id: 'WebhookAttempt' });
export type WebhookAttempt = z.infer<typeof WebhookAttempt>;

export const WebhookDeliveryStatus = z.enum(['pending', 'sending', 'succeeded', 'failed']);

export const WebhookDelivery = z
  .object({
    id: z.string().meta({ example: 'dlv_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('webhook_delivery'),
    endpoint_id: z.string(),
    event_id: z.string(),
    event_type: z.string(),
    status: WebhookDeliveryStatus,
    attempt_count: z.number().int(),
    max_attempts: z.number().int(),
    next_attempt_at: Timestamp.nullable().meta({
      description: 'When the next attempt is due (while sending: when the claim lapses); null when done.',
    }),
    last_response_code: z.number().int().nullable(),
    last_error: z.string().nullable(),
    redelivery_of: z.string().nullable().meta({ description: 'The delivery this one re-sends by hand.' }),
    attempts: z.array(WebhookAttempt),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDelivery>;

export const DeliveryListQuery = ListQuery.extend({
  status: WebhookDeliveryStatus.optional(),
  event_id: z.string().min(1).optional(),
});
export type DeliveryListQuery = z.infer<typeof DeliveryListQuery>;
