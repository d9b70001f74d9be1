import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { SalesTaxQuery, SalesTaxReport } from '../../shared/schemas/sales-tax';
import type { AppContext } from '../context';
import { getSalesTaxReport, salesTaxCsv } from '../domain/sales-tax';
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
            "Per tax name and rate: the sales it was charged on, the tax and the invoices, for a period (default this quarter, at most 366 days) in the business's time zone. basis=accrual counts invoices issued in the period (sent or paid; drafts and void invoices never); basis=cash counts payments received in it, each carrying its share of its invoice's sales and tax so an invoice's payments add up to its tax to the cent. format=csv downloads the same table.",
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
        const report = await getSalesTaxReport(ctx, request.auth.account.id, query);
        if (format === 'json') return report;
        const file = salesTaxCsv(report);
        return reply
          .type('text/csv; charset=utf-8')
          .header('Content-Disposition', `attachment; filename="${file.filename}"`)
          .header('Cache-Control', 'no-store')
          .send(file.csv);
      },
    );
  };
}
