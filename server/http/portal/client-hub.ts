import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ClientAction,
  ClientActionInbox,
  ClientActionResolve,
  ClientLinkIssued,
  ClientLinksRevoked,
} from '../../../shared/schemas/client-hub';
import type { AppContext } from '../../context';
import * as inbox from '../../domain/client-action-inbox';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['client hub'];
const WithId = PortalParams.extend({ id: z.string() });

/** The owner's side of the client hub: the business's own portal key or session only. */
export function portalClientHubRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/client-actions',
      {
        schema: {
          tags,
          summary: "Customers' actions waiting for the owner",
          description:
            'Quote answers, payment notices, reschedule and new-link requests taken in (or refused) and not yet dealt with.',
          params: PortalParams,
          response: { 200: ClientActionInbox, ...commonErrors },
        },
      },
      async (request) => ({ waiting: await inbox.waitingActions(ctx, request.auth.account.id) }),
    );

    app.post(
      '/client-actions/:id/resolve',
      {
        schema: {
          tags,
          summary: 'Deal with a customer action',
          description:
            'Marks it handled; `reply` is e-mailed to the customer (another time for a visit, say).',
          params: WithId,
          body: ClientActionResolve,
          response: { 200: ClientAction, ...commonErrors },
        },
      },
      (request) => inbox.resolveAction(ctx, request.auth.account.id, request.params.id, request.body ?? {}),
    );

    app.post(
      '/customers/:id/client-link',
      {
        schema: {
          tags,
          summary: "Issue a link to the customer's client hub page",
          description: 'Needs client_hub_url. The URL is shown once: only its hash is kept.',
          params: WithId,
          response: { 201: ClientLinkIssued, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await inbox.newCustomerLink(ctx, request.auth.account.id, request.params.id)),
    );

    app.post(
      '/customers/:id/client-links/revoke',
      {
        schema: {
          tags,
          summary: "Revoke the customer's client hub links",
          params: WithId,
          response: { 200: ClientLinksRevoked, ...commonErrors },
        },
      },
      (request) => inbox.revokeCustomerLinks(ctx, request.auth.account.id, request.params.id),
    );
  };
}
