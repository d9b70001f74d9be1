import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import { DeletedDocument } from '../../../shared/schemas/document';
import {
  Quote,
  QuoteApproval,
  QuoteCreate,
  QuoteListQuery,
  QuoteUpdate,
} from '../../../shared/schemas/quote';
import type { AppContext } from '../../context';
import { quotePdfFile } from '../../documents/pdf';
import { quoteApproval } from '../../domain/client-actions';
import * as quotes from '../../domain/quotes';
import { commonErrors, PortalParams } from '../schemas';
import { pdfResponse } from './invoices';

const NumberParams = PortalParams.extend({
  number: z.string().meta({ description: 'The quote number (Q-0001) or id.' }),
});
const tags = ['quotes'];

export function portalQuoteRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/quotes',
      {
        schema: {
          tags,
          summary: 'List quotes',
          description:
            'Newest first. Filter by status (expired is computed), customer_email, or search with q.',
          params: PortalParams,
          querystring: QuoteListQuery,
          response: { 200: listOf(Quote), ...commonErrors },
        },
      },
      (request) => quotes.listQuotes(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/quotes/create',
      {
        schema: {
          tags,
          summary: 'Create a quote',
          description:
            'The invoice body with valid_days in place of due_days (default: config default_valid_days). Creates a draft.',
          params: PortalParams,
          body: QuoteCreate,
          response: { 201: Quote, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await quotes.createQuote(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/quotes/:number',
      {
        schema: {
          tags,
          summary: 'Get a quote',
          params: NumberParams,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.getQuote(ctx, request.auth.account.id, request.params.number),
    );

    app.get(
      '/quotes/:number/approval',
      {
        schema: {
          tags,
          summary: 'Get the customer’s approval of a quote',
          description:
            'Who approved the quote on the client hub, when and from which address (printed on its PDF); null when it was not approved there.',
          params: NumberParams,
          response: { 200: QuoteApproval, ...commonErrors },
        },
      },
      async (request) => {
        const accountId = request.auth.account.id;
        const quote = await quotes.getQuote(ctx, accountId, request.params.number);
        return { approval: await quoteApproval(ctx.db, accountId, quote.id) };
      },
    );

    app.patch(
      '/quotes/:number',
      {
        schema: {
          tags,
          summary: 'Change a draft quote',
          params: NumberParams,
          body: QuoteUpdate,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.updateQuote(ctx, request.auth.account.id, request.params.number, request.body),
    );

    app.delete(
      '/quotes/:number',
      {
        schema: {
          tags,
          summary: 'Delete a draft quote',
          params: NumberParams,
          response: { 200: DeletedDocument, ...commonErrors },
        },
      },
      (request) => quotes.deleteQuote(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/quotes/:number/send',
      {
        schema: {
          tags,
          summary: 'Send a quote by e-mail',
          description:
            'Queues the e-mail (with the PDF) in the mail outbox. A draft becomes sent when the e-mail has gone out (never before: without e-mail settings it waits). 409 while an e-mail of the quote still waits.',
          params: NumberParams,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.sendQuote(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/quotes/:number/mark-sent',
      {
        schema: {
          tags,
          summary: 'Record a draft quote as sent without e-mail',
          description: 'For a quote the customer got another way (handed over, posted). No e-mail is sent.',
          params: NumberParams,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.markQuoteSent(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/quotes/:number/accept',
      {
        schema: {
          tags,
          summary: "Record the customer's acceptance",
          description:
            'For a sent quote that has not expired, or a draft the customer said yes to without it being sent (on the phone, on site): its waiting e-mail is then cancelled. Raises quote.accepted once.',
          params: NumberParams,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.acceptQuote(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/quotes/:number/decline',
      {
        schema: {
          tags,
          summary: "Record the customer's refusal",
          description:
            'For a sent quote, expired or not, or a draft (its waiting e-mail is then cancelled). Raises quote.declined once.',
          params: NumberParams,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.declineQuote(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/quotes/:number/convert',
      {
        schema: {
          tags,
          summary: 'Turn an accepted quote into a job',
          description: "Creates an unscheduled job priced at the quote's total; the quote's job_id names it.",
          params: NumberParams,
          response: { 200: Quote, ...commonErrors },
        },
      },
      (request) => quotes.convertQuote(ctx, request.auth.account.id, request.params.number),
    );

    app.get(
      '/quotes/:number/pdf',
      {
        schema: {
          tags,
          summary: 'The quote as a PDF',
          params: NumberParams,
          response: { 200: pdfResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const { filename, pdf } = await quotePdfFile(ctx, request.auth.account.id, request.params.number);
        return reply
          .type('application/pdf')
          .header('Content-Disposition', `inline; filename="${filename}"`)
          .send(pdf);
      },
    );
  };
}
