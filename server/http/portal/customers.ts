import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import {
  Customer,
  CustomerCreate,
  CustomerListQuery,
  CustomerUpdate,
  DuplicatesQuery,
  MailMessage,
  MergeBody,
  NoteBody,
  PossibleDuplicate,
  TagsBody,
  WinbackBody,
} from '../../../shared/schemas/customer';
import { CustomerWithHistory } from '../../../shared/schemas/overview';
import type { AppContext } from '../../context';
import { getCustomerWithHistory } from '../../domain/customer-history';
import { listCustomers } from '../../domain/customer-list';
import { findPossibleDuplicates, mergeCustomers } from '../../domain/customer-merge';
import * as customers from '../../domain/customers';
import { customerReferences } from '../../sync/customer-references';
import { commonErrors, PortalParams } from '../schemas';

const EmailParams = PortalParams.extend({
  email: z.string().meta({
    description:
      "The customer's id (cus_…) or e-mail address. Every customer has an id; a customer without e-mail is reached by id only.",
  }),
});
const tags = ['customers'];

export function portalCustomerRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/customers',
      {
        schema: {
          tags,
          summary: 'List customers',
          description: 'Newest first. Search with q, filter by tag or lapsed.',
          params: PortalParams,
          querystring: CustomerListQuery,
          response: { 200: listOf(Customer), ...commonErrors },
        },
      },
      (request) => listCustomers(ctx, request.auth.account, request.query),
    );

    app.post(
      '/customers',
      {
        schema: {
          tags,
          summary: 'Create a customer',
          params: PortalParams,
          body: CustomerCreate,
          response: { 201: Customer, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await customers.createCustomer(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/customers/possible-duplicates',
      {
        schema: {
          tags,
          summary: 'Find customers a new one may duplicate',
          description:
            'Before adding a customer: those with the same name and phone digits, or an e-mail one letter off. Pointed out only; merge them with POST /customers/{email}/merge. Portal key or the signed-in UI.',
          params: PortalParams,
          querystring: DuplicatesQuery,
          response: { 200: z.object({ data: z.array(PossibleDuplicate) }), ...commonErrors },
        },
      },
      async (request) => ({
        data: await findPossibleDuplicates(ctx, request.auth.account.id, request.query),
      }),
    );

    app.post(
      '/customers/:email/merge',
      {
        schema: {
          tags,
          summary: 'Merge another customer into this one',
          description:
            'The customer named by `from` is merged into this one and deleted: their jobs, quotes, invoices (with payments), bookings, service plans, reviews, e-mails, notes and tags move here, and this customer takes the e-mail, phone and address it lacks. On every synced device too. Portal key or the signed-in UI (a v1 key cannot).',
          params: EmailParams,
          body: MergeBody,
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) =>
        mergeCustomers(
          ctx,
          request.auth.account.id,
          request.params.email,
          request.body.from,
          customerReferences(),
        ),
    );

    app.get(
      '/customers/:email',
      {
        schema: {
          tags,
          summary: 'Get a customer with their history',
          description:
            'The customer plus the most recent 50 invoices, quotes, jobs, reviews and e-mails, and money totals.',
          params: EmailParams,
          response: { 200: CustomerWithHistory, ...commonErrors },
        },
      },
      (request) => getCustomerWithHistory(ctx, request.auth.account.id, request.params.email),
    );

    app.patch(
      '/customers/:email',
      {
        schema: {
          tags,
          summary: 'Update a customer',
          params: EmailParams,
          body: CustomerUpdate,
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) => customers.updateCustomer(ctx, request.auth.account.id, request.params.email, request.body),
    );

    app.post(
      '/customers/:email/tags',
      {
        schema: {
          tags,
          summary: 'Add tags to a customer',
          params: EmailParams,
          body: TagsBody,
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) => customers.addTags(ctx, request.auth.account.id, request.params.email, request.body.tags),
    );

    app.delete(
      '/customers/:email/tags/:tag',
      {
        schema: {
          tags,
          summary: 'Remove a tag from a customer',
          params: EmailParams.extend({ tag: z.string() }),
          response: { 200: Customer, ...commonErrors },
        },
      },
      (request) =>
        customers.removeTag(
          ctx,
          request.auth.account.id,
          request.params.email,
          request.params.tag.toLowerCase(),
        ),
    );

    app.post(
      '/customers/:email/notes',
      {
        schema: {
          tags,
          summary: 'Add a note to a customer',
          params: EmailParams,
          body: NoteBody,
          response: { 201: Customer, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await customers.addNote(ctx, request.auth.account.id, request.params.email, request.body.text),
          ),
    );

    app.post(
      '/customers/:email/winback',
      {
        schema: {
          tags,
          summary: 'Queue a win-back e-mail',
          description:
            'For a lapsed customer: fills the win-back template from config (or the message given) and queues it in the mail outbox.',
          params: EmailParams,
          body: WinbackBody.optional(),
          response: { 201: z.object({ customer: Customer, message: MailMessage }), ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await customers.queueWinback(
              ctx,
              request.auth.account.id,
              request.params.email,
              request.body ?? {},
            ),
          ),
    );
  };
}
