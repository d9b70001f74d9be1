import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ListQuery, listOf } from '../../shared/schemas/common';
import { Deleted } from '../../shared/schemas/v1';
import {
  DeliveryListQuery,
  WebhookCreate,
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
  WebhookUpdate,
} from '../../shared/schemas/webhook';
import type { AppContext } from '../context';
import type { WebhookInterface } from '../db/schema';
import * as webhooks from '../domain/webhooks';
import { commonErrors } from './schemas';

export const EndpointId = z
  .string()
  .min(1)
  .meta({ description: "The endpoint's id.", example: 'whk_01jd3k5x2m9q7r8s6t4v2w0y1z' });
export const DeliveryId = z
  .string()
  .min(1)
  .meta({ description: "The delivery's id.", example: 'dlv_01jd3k5x2m9q7r8s6t4v2w0y1z' });

/** The signing secret is in this response only: an idempotent replay never carries it. */
const signingSecret = { secretField: 'secret' };

/** Path parameter schemas of one interface: its base (the portal has client_id) plus the ids. */
export interface WebhookRouteParams {
  base: z.ZodType<object>;
  endpoint: z.ZodType<{ id: string }>;
  delivery: z.ZodType<{ id: string; delivery_id: string }>;
}

/**
 * The webhook routes, the same on both interfaces (contract part 5): the portal registers them
 * under its base with iface 'portal', v1 under /api/v1 with iface 'v1'. An endpoint belongs to the
 * interface that created it and is invisible to the other.
 */
export function webhookRoutes(
  ctx: AppContext,
  iface: WebhookInterface,
  params: WebhookRouteParams,
  tags: string[],
): FastifyPluginAsyncZod {
  const { base: baseParams, endpoint: Params, delivery: DeliveryParams } = params;
  const account = (request: { auth: { account: { id: string } } }) => request.auth.account.id;

  return async (app) => {
    app.get(
      '/webhooks',
      {
        schema: {
          tags,
          summary: 'List webhook endpoints',
          params: baseParams,
          querystring: ListQuery,
          response: { 200: listOf(WebhookEndpoint), ...commonErrors },
        },
      },
      (request) => webhooks.listEndpoints(ctx, account(request), iface, request.query),
    );

    app.post(
      '/webhooks',
      {
        config: signingSecret,
        schema: {
          tags,
          summary: 'Create a webhook endpoint',
          description:
            'Returns the signing secret (whsec_…) in this response only. Omit events (or send ["*"]) for every event.',
          params: baseParams,
          body: WebhookCreate[iface],
          response: { 201: WebhookEndpointWithSecret, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await webhooks.createEndpoint(ctx, account(request), iface, request.body)),
    );

    app.get(
      '/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Get a webhook endpoint',
          params: Params,
          response: { 200: WebhookEndpoint, ...commonErrors },
        },
      },
      (request) => webhooks.getEndpoint(ctx, account(request), iface, request.params.id),
    );

    app.patch(
      '/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Update a webhook endpoint',
          description: 'enabled: true re-enables it and clears its failure count.',
          params: Params,
          body: WebhookUpdate[iface],
          response: { 200: WebhookEndpoint, ...commonErrors },
        },
      },
      (request) => webhooks.updateEndpoint(ctx, account(request), iface, request.params.id, request.body),
    );

    app.delete(
      '/webhooks/:id',
      {
        schema: {
          tags,
          summary: 'Delete a webhook endpoint',
          description: 'Its pending deliveries and its delivery history go with it.',
          params: Params,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      (request) => webhooks.deleteEndpoint(ctx, account(request), iface, request.params.id),
    );

    app.post(
      '/webhooks/:id/test',
      {
        schema: {
          tags,
          summary: 'Send a webhook.test event',
          description: 'Queues a webhook.test delivery (the endpoint as data.object) to this endpoint only.',
          params: Params,
          response: { 202: WebhookDelivery, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(202).send(await webhooks.sendTestEvent(ctx, account(request), iface, request.params.id)),
    );

    app.post(
      '/webhooks/:id/rotate-secret',
      {
        config: signingSecret,
        schema: {
          tags,
          summary: "Rotate an endpoint's signing secret",
          description:
            'Returns the new secret in this response only. For 24 hours deliveries carry two v1= signatures, the new one first.',
          params: Params,
          response: { 200: WebhookEndpointWithSecret, ...commonErrors },
        },
      },
      (request) => webhooks.rotateSecret(ctx, account(request), iface, request.params.id),
    );

    app.post(
      '/webhooks/:id/enable',
      {
        schema: {
          tags,
          summary: 'Re-enable a webhook endpoint',
          description:
            'After it was disabled by hand or after 20 consecutive failed attempts. Deliveries that waited are then sent.',
          params: Params,
          response: { 200: WebhookEndpoint, ...commonErrors },
        },
      },
      (request) => webhooks.enableEndpoint(ctx, account(request), iface, request.params.id),
    );

    app.get(
      '/webhooks/:id/deliveries',
      {
        schema: {
          tags,
          summary: 'Delivery history of an endpoint',
          description: 'Newest first; each delivery with every attempt. Filter by status or event_id.',
          params: Params,
          querystring: DeliveryListQuery,
          response: { 200: listOf(WebhookDelivery), ...commonErrors },
        },
      },
      (request) => webhooks.listDeliveries(ctx, account(request), iface, request.params.id, request.query),
    );

    app.get(
      '/webhooks/:id/deliveries/:delivery_id',
      {
        schema: {
          tags,
          summary: 'Get a delivery with its attempts',
          params: DeliveryParams,
          response: { 200: WebhookDelivery, ...commonErrors },
        },
      },
      (request) =>
        webhooks.getDelivery(ctx, account(request), iface, request.params.id, request.params.delivery_id),
    );

    app.post(
      '/webhooks/:id/deliveries/:delivery_id/redeliver',
      {
        schema: {
          tags,
          summary: 'Send a delivered (or failed) event again',
          description: 'Queues a new delivery of the same event, one attempt, linked by redelivery_of.',
          params: DeliveryParams,
          response: { 202: WebhookDelivery, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(202)
          .send(
            await webhooks.redeliver(
              ctx,
              account(request),
              iface,
              request.params.id,
              request.params.delivery_id,
            ),
          ),
    );
  };
}
