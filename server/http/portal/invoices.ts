import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { listOf } from '../../../shared/schemas/common';
import { DeletedDocument } from '../../../shared/schemas/document';
import {
  Invoice,
  InvoiceCreate,
  InvoiceListQuery,
  InvoiceUpdate,
  MarkPaid,
  PaymentCreate,
} from '../../../shared/schemas/invoice';
import type { AppContext } from '../../context';
import { invoicePdfFile } from '../../documents/pdf';
import * as payments from '../../domain/invoice-payments';
import * as invoices from '../../domain/invoices';
import { commonErrors, PortalParams } from '../schemas';

const NumberParams = PortalParams.extend({
  number: z.string().meta({ description: 'The invoice number (INV-0001) or id.' }),
});
const tags = ['invoices'];

/** A PDF answer in the OpenAPI document; the route sends the bytes as they are. */
export const pdfResponse = {
  description: 'The document as a PDF.',
  content: { 'application/pdf': { schema: z.any().meta({ type: 'string', format: 'binary' }) } },
};

export function portalInvoiceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/invoices',
      {
        schema: {
          tags,
          summary: 'List invoices',
          description:
            'Newest first. Filter by status (overdue is computed), customer_email, or search with q.',
          params: PortalParams,
          querystring: InvoiceListQuery,
          response: { 200: listOf(Invoice), ...commonErrors },
        },
      },
      (request) => invoices.listInvoices(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/invoices/create',
      {
        schema: {
          tags,
          summary: 'Create an invoice',
          description:
            'Creates a draft. An unknown customer_email creates the customer. taxes default to the config default_taxes ' +
            'when absent, due_days to default_due_days. Totals are computed by the server.',
          params: PortalParams,
          body: InvoiceCreate,
          response: { 201: Invoice, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await invoices.createInvoice(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/invoices/:number',
      {
        schema: {
          tags,
          summary: 'Get an invoice',
          params: NumberParams,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.getInvoice(ctx, request.auth.account.id, request.params.number),
    );

    app.patch(
      '/invoices/:number',
      {
        schema: {
          tags,
          summary: 'Change a draft invoice',
          description: 'Only drafts change; a sent invoice is voided and reissued.',
          params: NumberParams,
          body: InvoiceUpdate,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.updateInvoice(ctx, request.auth.account.id, request.params.number, request.body),
    );

    app.delete(
      '/invoices/:number',
      {
        schema: {
          tags,
          summary: 'Delete a draft invoice',
          params: NumberParams,
          response: { 200: DeletedDocument, ...commonErrors },
        },
      },
      (request) => invoices.deleteInvoice(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/invoices/:number/send',
      {
        schema: {
          tags,
          summary: 'Send an invoice by e-mail',
          description:
            'Queues the e-mail (with the PDF) in the mail outbox. A draft becomes sent when the e-mail has gone out (never before: without e-mail settings it waits); an open invoice can be sent again. 409 while an e-mail of the invoice still waits.',
          params: NumberParams,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.sendInvoice(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/invoices/:number/mark-sent',
      {
        schema: {
          tags,
          summary: 'Record a draft invoice as sent without e-mail',
          description:
            'For an invoice the customer got another way (handed over, posted). No e-mail is sent.',
          params: NumberParams,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.markInvoiceSent(ctx, request.auth.account.id, request.params.number),
    );

    app.post(
      '/invoices/:number/paid',
      {
        schema: {
          tags,
          summary: 'Mark an invoice paid',
          description: 'Records a payment of the whole balance.',
          params: NumberParams,
          // Fastify hands a POST without a body to validation as null.
          body: MarkPaid.nullish(),
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => payments.markPaid(ctx, request.auth.account.id, request.params.number, request.body ?? {}),
    );

    app.post(
      '/invoices/:number/payment',
      {
        schema: {
          tags,
          summary: 'Record a payment',
          description: 'A payment of part or all of the balance; more than the balance is refused.',
          params: NumberParams,
          body: PaymentCreate,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => payments.recordPayment(ctx, request.auth.account.id, request.params.number, request.body),
    );

    app.post(
      '/invoices/:number/void',
      {
        schema: {
          tags,
          summary: 'Void an invoice',
          description: 'For a draft or sent invoice with no payments.',
          params: NumberParams,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.voidInvoice(ctx, request.auth.account.id, request.params.number),
    );

    app.get(
      '/invoices/:number/pdf',
      {
        schema: {
          tags,
          summary: 'The invoice as a PDF',
          params: NumberParams,
          response: { 200: pdfResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const { filename, pdf } = await invoicePdfFile(ctx, request.auth.account.id, request.params.number);
        return reply
          .type('application/pdf')
          .header('Content-Disposition', `inline; filename="${filename}"`)
          .send(pdf);
      },
    );
  };
}
