import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import {
  Customer,
  CustomerCreate,
  CustomerListQuery,
  CustomerUpdate,
  NoteBody,
  TagsBody,
} from '../../../shared/schemas/customer';
import { Deleted, V1ListFilters } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import { listCustomers } from '../../domain/customer-list';
import * as customers from '../../domain/customers';
import { commonErrors } from '../schemas';
import { withExample } from './examples';
import { IdParams, v1Tag } from './params';

const tags = v1Tag('clients');
const Params = IdParams('client', 'cus_01jd3k5x2m9q7r8s6t4v2w0y1z');
const ClientListQuery = CustomerListQuery.extend(V1ListFilters.shape);

const createExample = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+1 416 555 0100',
  address: '12 Analytical Way, Toronto',
  tags: ['weekly'],
};

/** v1 clients are the portal's customers: the same records through the same domain functions. */
export function v1ClientRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/clients',
      {
        schema: {
          tags,
          summary: 'List clients',
          description:
            'Newest first, keyset-paginated (limit, cursor). Filter with q (name, e-mail or phone), tag, lapsed, created_after, created_before, updated_since.',
          querystring: ClientListQuery,
          response: { 200: listOf(Customer), ...commonErrors },
        },
      },
      (request) => listCustomers(ctx, request.auth.account, request.query),
    );

    app.get(
      '/clients/:id',
      {
        schema: {
          tags,
          summary: 'Get a client',
          params: Params,
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) => customers.getCustomer(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/clients',
      {
        schema: {
          tags,
          summary: 'Create a client',
          description:
            'E-mail addresses are unique per business (case-insensitive): a duplicate is 409 conflict.',
          body: withExample(CustomerCreate, createExample),
          response: { 201: Customer, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await customers.createCustomer(ctx, request.auth.account.id, request.body)),
    );

    app.patch(
      '/clients/:id',
      {
        schema: {
          tags,
          summary: 'Update a client',
          description: 'Send only the fields to change; null clears phone or address.',
          params: Params,
          body: withExample(CustomerUpdate, { phone: '+1 416 555 0199', address: null }),
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) => customers.updateCustomer(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/clients/:id',
      {
        schema: {
          tags,
          summary: 'Delete a client',
          description:
            'Only a client without invoices, quotes, jobs or bookings can be deleted; otherwise 409 invalid_state.',
          params: Params,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      async (request) => {
        const { id } = await customers.deleteCustomer(ctx, request.auth.account.id, request.params.id);
        return { id, object: 'customer', deleted: true as const };
      },
    );

    app.post(
      '/clients/:id/tags',
      {
        schema: {
          tags,
          summary: 'Add tags to a client',
          params: Params,
          body: withExample(TagsBody, { tags: ['vip'] }),
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) => customers.addTags(ctx, request.auth.account.id, request.params.id, request.body.tags),
    );

    app.delete(
      '/clients/:id/tags/:tag',
      {
        schema: {
          tags,
          summary: 'Remove a tag from a client',
          params: Params.extend({ tag: z.string().min(1) }),
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) =>
        customers.removeTag(
          ctx,
          request.auth.account.id,
          request.params.id,
          request.params.tag.toLowerCase(),
        ),
    );

    app.post(
      '/clients/:id/notes',
      {
        schema: {
          tags,
          summary: 'Add a note to a client',
          params: Params,
          body: withExample(NoteBody, { text: 'Gate code 1234' }),
          response: { 201: Customer, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await customers.addNote(ctx, request.auth.account.id, request.params.id, request.body.text)),
    );
  };
}
