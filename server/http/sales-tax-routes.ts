import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SalesTaxQuery, SalesTaxReport } from '../../shared/schemas/sales-tax';
import type { AppContext } from '../context';
import { salesTaxCsv, salesTaxFigures } from '../domain/sales-tax';
import { sendCsv } from './csv-download';
import { commonErrors } from './schemas';

/** GET /reports/sales-tax, the same on both interfaces: the portal under its base, v1 under /api/v1. */
export function salesTaxRoutes(
  ctx: AppContext,
  options: { params?: z.ZodType<object>; tags: string[] },
): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reports/sales-tax',
      {
        schema: {
          tags: options.tags,
          summary: 'Sales-tax report for a period',
          description:
            "Per tax name and rate: the sales it was charged on, the tax and the invoices, for a period (default this quarter, at most 366 days) in the business's time zone. basis=accrual counts invoices issued in the period (sent or paid; drafts and void invoices never); basis=cash counts payments received in it, each carrying its share of its invoice's sales and tax so an invoice's payments add up to its tax to the cent. format=csv downloads the same table, then (after an empty row) one row per invoice issued (accrual) or payment received (cash) with its sales before tax, each tax and its total, adding up to the table's totals.",
          ...(options.params && { params: options.params }),
          querystring: SalesTaxQuery,
          response: {
            200: {
              description: 'The report, or with format=csv the CSV file.',
              content: {
                'application/json': { schema: SalesTaxReport },
                'text/csv': { schema: z.string() },
              },
            },
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const { format, ...query } = request.query;
        const figures = await salesTaxFigures(ctx, request.auth.account.id, query, format === 'csv');
        if (format === 'json') return figures.report;
        const file = salesTaxCsv(figures);
        return sendCsv(reply, file.filename, file.csv);
      },
    );
  };
}
