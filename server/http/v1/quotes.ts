import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOf } from '../../../shared/schemas/common';
import { DeletedDocument } from '../../../shared/schemas/document';
import { Quote, QuoteCreate, QuoteListQuery, QuoteUpdate } from '../../../shared/schemas/quote';
import { V1ClientFilter, V1ListFilters, v1CreateBody } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import * as quotes from '../../domain/quotes';
import { commonErrors } from '../schemas';
import { withExample } from './examples';
import { clientFilter, IdParams, v1Tag, withClientReference } from './params';

const tags = v1Tag('quotes');
const QuoteCreateV1 = v1CreateBody(QuoteCreate, 'QuoteCreateV1', { required: true });
const Params = IdParams('quote', 'quo_01jd3k5x2m9q7r8s6t4v2w0y1z');
const V1QuoteListQuery = QuoteListQuery.extend({ ...V1ListFilters.shape, ...V1ClientFilter.shape });

const createExample = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  items: [{ description: 'Gutter cleaning', quantity: 2, unit_price: 85 }],
  taxes: [{ name: 'HST', rate: 0.13 }],
  valid_days: 30,
};

const actions = [
  {
    path: 'send',
    summary: 'Send a quote',
    description:
      'Queues the e-mail to the client. A draft becomes sent once the e-mail has gone out (it waits while e-mail is not set up or offline). 409 while one already waits.',
    run: quotes.sendQuote,
  },
  {
    path: 'mark-sent',
    summary: 'Record a draft quote as sent without e-mail',
    description:
      'draft → sent for a quote the client got another way (handed over, posted). No e-mail is sent.',
    run: quotes.markQuoteSent,
  },
  {
    path: 'accept',
    summary: 'Record that the client accepted',
    description:
      'sent or draft → accepted (quote.accepted webhook): the client may say yes before the quote was sent (on the phone); a waiting e-mail of the draft is then cancelled. A declined or expired quote is 409 invalid_state.',
    run: quotes.acceptQuote,
  },
  {
    path: 'decline',
    summary: 'Record that the client declined',
    description:
      'sent or draft → declined (quote.declined webhook); a waiting e-mail of the draft is then cancelled.',
    run: quotes.declineQuote,
  },
  {
    path: 'convert',
    summary: 'Convert an accepted quote into a job',
    description:
      'accepted → converted: creates an unscheduled job for the client, priced at the quote total; the quote then carries job_id.',
    run: quotes.convertQuote,
  },
] as const;

export function v1QuoteRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/quotes',
      {
        schema: {
          tags,
          summary: 'List quotes',
          description:
            'Newest first, keyset-paginated. status takes draft, sent, accepted, declined, converted or expired (sent and past valid_until). Also client_id, customer_email, q, created_after, created_before, updated_since.',
          querystring: V1QuoteListQuery,
          response: { 200: listOf(Quote), ...commonErrors },
        },
      },
      (request) => quotes.listQuotes(ctx, request.auth.account.id, clientFilter(request.query)),
    );

    app.get(
      '/quotes/:id',
      {
        schema: {
          tags,
          summary: 'Get a quote',
          description: 'By id (quo_…) or number (Q-0001).',
          params: Params,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.getQuote(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/quotes',
      {
        schema: {
          tags,
          summary: 'Create a draft quote',
          description:
            'The invoice body with valid_days in place of due_days. The client is named by e-mail and created if new; totals are computed by the server.',
          body: withExample(QuoteCreateV1, createExample),
          response: { 201: Quote, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await quotes.createQuote(
              ctx,
              request.auth.account.id,
              await withClientReference(ctx, request.auth.account.id, request.body),
            ),
          ),
    );

    app.patch(
      '/quotes/:id',
      {
        schema: {
          tags,
          summary: 'Update a draft quote',
          description: 'Only drafts change; otherwise 409 invalid_state.',
          params: Params,
          body: withExample(QuoteUpdate, { valid_until: '2026-12-31' }),
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.updateQuote(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/quotes/:id',
      {
        schema: {
          tags,
          summary: 'Delete a draft quote',
          description:
            'Only drafts are deleted; a quote the client received stays on record (409 invalid_state).',
          params: Params,
          response: { 200: DeletedDocument, ...commonErrors },
        },
      },
      (request) => quotes.deleteQuote(ctx, request.auth.account.id, request.params.id),
    );

    for (const action of actions) {
      app.post(
        `/quotes/:id/${action.path}`,
        {
          schema: {
            tags,
            summary: action.summary,
            description: action.description,
            params: Params,
            response: { 200: Quote, ...commonErrors },
          },
        },
        (request) => action.run(ctx, request.auth.account.id, request.params.id),
      );
    }
  };
}
