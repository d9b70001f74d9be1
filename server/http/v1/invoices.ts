import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
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
import { V1ClientFilter, V1ListFilters, v1CreateBody } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import * as payments from '../../domain/invoice-payments';
import * as invoices from '../../domain/invoices';
import { commonErrors } from '../schemas';
import { optionalWithExample, withExample } from './examples';
import { clientFilter, IdParams, v1Tag, withClientReference } from './params';

const tags = v1Tag('invoices');
const InvoiceCreateV1 = v1CreateBody(InvoiceCreate, 'InvoiceCreateV1', { required: true });
const Params = IdParams('invoice', 'inv_01jd3k5x2m9q7r8s6t4v2w0y1z');
const V1InvoiceListQuery = InvoiceListQuery.extend({ ...V1ListFilters.shape, ...V1ClientFilter.shape });

const createExample = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  items: [{ description: 'Deep clean, 3-bedroom house', quantity: 1, unit_price: 240 }],
  taxes: [{ name: 'HST', rate: 0.13 }],
  due_days: 14,
};

export function v1InvoiceRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/invoices',
      {
        schema: {
          tags,
          summary: 'List invoices',
          description:
            'Newest first, keyset-paginated. status takes draft, sent, partially_paid, paid, void or overdue (open and past due; sent and partially_paid then exclude overdue ones). Also client_id, customer_email, q (number, name, e-mail), created_after, created_before, updated_since.',
          querystring: V1InvoiceListQuery,
          response: { 200: listOf(Invoice), ...commonErrors },
        },
      },
      (request) => invoices.listInvoices(ctx, request.auth.account.id, clientFilter(request.query)),
    );

    app.get(
      '/invoices/:id',
      {
        schema: {
          tags,
          summary: 'Get an invoice',
          description: 'By id (inv_…) or number (INV-0001).',
          params: Params,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.getInvoice(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/invoices',
      {
        schema: {
          tags,
          summary: 'Create a draft invoice',
          description:
            "The client is named by e-mail and created if new. Totals are computed by the server (tax per rate on the subtotal, rounded once to the cent); taxes default to the config's default_taxes when absent.",
          body: withExample(InvoiceCreateV1, createExample),
          response: { 201: Invoice, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await invoices.createInvoice(
              ctx,
              request.auth.account.id,
              await withClientReference(ctx, request.auth.account.id, request.body),
            ),
          ),
    );

    app.patch(
      '/invoices/:id',
      {
        schema: {
          tags,
          summary: 'Update a draft invoice',
          description:
            'Only drafts change; a sent invoice is 409 invalid_state (void it and create a new one).',
          params: Params,
          body: withExample(InvoiceUpdate, { due_date: '2026-12-31', notes: 'Thank you!' }),
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.updateInvoice(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/invoices/:id',
      {
        schema: {
          tags,
          summary: 'Delete a draft invoice',
          description: 'Only drafts are deleted; a sent invoice must be voided (409 invalid_state).',
          params: Params,
          response: { 200: DeletedDocument, ...commonErrors },
        },
      },
      (request) => invoices.deleteInvoice(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/invoices/:id/send',
      {
        schema: {
          tags,
          summary: 'Send an invoice',
          description:
            'Queues the e-mail to the client. A draft becomes sent once the e-mail has gone out (it waits while e-mail is not set up or offline); sending an open invoice again queues a reminder. Paid, void, or an e-mail already waiting: 409.',
          params: Params,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.sendInvoice(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/invoices/:id/mark-sent',
      {
        schema: {
          tags,
          summary: 'Record a draft invoice as sent without e-mail',
          description:
            'draft → sent for an invoice the client got another way (handed over, posted). No e-mail is sent.',
          params: Params,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.markInvoiceSent(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/invoices/:id/void',
      {
        schema: {
          tags,
          summary: 'Void an invoice',
          description: 'A draft or sent invoice with no payments; otherwise 409 invalid_state.',
          params: Params,
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => invoices.voidInvoice(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/invoices/:id/payments',
      {
        schema: {
          tags,
          summary: 'Record a payment',
          description:
            'A payment of at most the balance (more is 400 with param amount). The invoice becomes partially_paid, or paid when the balance reaches zero (invoice.paid webhook).',
          params: Params,
          body: withExample(PaymentCreate, { amount: 100, method: 'card', paid_at: '2026-11-22T15:00:00Z' }),
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => payments.recordPayment(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.post(
      '/invoices/:id/paid',
      {
        schema: {
          tags,
          summary: 'Mark an invoice paid',
          description: 'Records a payment of the whole balance.',
          params: Params,
          body: optionalWithExample(MarkPaid, { method: 'cash' }),
          response: { 200: Invoice, ...commonErrors },
        },
      },
      (request) => payments.markPaid(ctx, request.auth.account.id, request.params.id, request.body ?? {}),
    );
  };
}
