import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOf } from '../../../shared/schemas/common';
import { Event, EventListQuery } from '../../../shared/schemas/event';
import type { AppContext } from '../../context';
import * as eventLog from '../../domain/event-log';
import { commonErrors } from '../schemas';
import { IdParams, v1Tag } from './params';

const tags = v1Tag('events');

/** The event outbox, for receivers catching up on what their webhooks missed. */
export function v1EventRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/events',
      {
        schema: {
          tags,
          summary: 'List events',
          description:
            'Newest first, keyset-paginated (limit, cursor). Each event is the body its webhook deliveries carry. Filter by type and created_after.',
          querystring: EventListQuery,
          response: { 200: listOf(Event), ...commonErrors },
        },
      },
      (request) => eventLog.listEvents(ctx, request.auth.account.id, request.query),
    );

    app.get(
      '/events/:id',
      {
        schema: {
          tags,
          summary: 'Get an event',
          params: IdParams('event', 'evt_01jd3k5x2m9q7r8s6t4v2w0y1z'),
          response: { 200: Event, ...commonErrors },
        },
      },
      (request) => eventLog.getEvent(ctx, request.auth.account.id, request.params.id),
    );
  };
}
