import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../shared/schemas/common';
import { Property, PropertyCreate, PropertyListQuery, PropertyUpdate } from '../../shared/schemas/property';
import type { AppContext } from '../context';
import * as properties from '../domain/properties';
import { commonErrors } from './schemas';

const Id = z.object({ id: z.string().min(1).meta({ description: "The property's id (prop_…)." }) });

/**
 * Customers' places (service addresses), the same routes on both interfaces: the portal (its key
 * or the signed-in UI) under /api/portal/{client_id}, v1 (a v1 key) under /api/v1.
 */
export function propertyRoutes(
  ctx: AppContext,
  options: { params?: z.ZodObject; tags: string[] },
): FastifyPluginAsyncZod {
  const tags = options.tags;
  const params = options.params ?? z.object({});
  return async (app) => {
    app.get(
      '/properties',
      {
        schema: {
          tags,
          summary: 'List places',
          description:
            "Customers' service addresses, newest first, keyset-paginated. Filter by customer_id and status (active or archived).",
          ...(options.params && { params: options.params }),
          querystring: PropertyListQuery,
          response: { 200: listOf(Property), ...commonErrors },
        },
      },
      (request) => properties.listProperties(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/properties',
      {
        schema: {
          tags,
          summary: 'Add a place to a customer',
          description:
            "A customer's first place is their default; is_default: true makes a later one the default. Sends property.created.",
          ...(options.params && { params: options.params }),
          body: PropertyCreate,
          response: { 201: Property, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await properties.createProperty(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/properties/:id',
      {
        schema: {
          tags,
          summary: 'Get a place',
          params: params.extend(Id.shape),
          response: { 200: Property, ...commonErrors },
        },
      },
      (request) => properties.getProperty(ctx, request.auth.account.id, request.params.id),
    );

    app.patch(
      '/properties/:id',
      {
        schema: {
          tags,
          summary: 'Update a place',
          description: 'Only what is sent changes; null clears an optional field. Sends property.updated.',
          params: params.extend(Id.shape),
          body: PropertyUpdate,
          response: { 200: Property, ...commonErrors },
        },
      },
      (request) => properties.updateProperty(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.post(
      '/properties/:id/archive',
      {
        schema: {
          tags,
          summary: 'Archive a place',
          description:
            'Kept on past work, offered for no new work; an archived place is not changed again (on synced devices too, archived beats edited). Archiving the default passes it to the newest other active place. Sends property.archived.',
          params: params.extend(Id.shape),
          response: { 200: Property, ...commonErrors },
        },
      },
      (request) => properties.archiveProperty(ctx, request.auth.account.id, request.params.id),
    );
  };
}
