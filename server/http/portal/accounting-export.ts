import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { AccountingExportQuery } from '../../../shared/schemas/accounting-export';
import type { AppContext } from '../../context';
import { accountingExport } from '../../documents/accounting-export';
import { csvFileResponse, sendCsv } from '../csv-download';
import { commonErrors, PortalParams } from '../schemas';

/**
 * GET /reports/accounting-export: the period's invoices or payments for the accountant, as the
 * sales-tax report's downloads are: the account's portal key or the signed-in owner.
 */
export function portalAccountingExportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reports/accounting-export',
      {
        schema: {
          tags: ['overview'],
          summary: 'Invoices or payments of a period for the accountant (QuickBooks Online, Xero, plain CSV)',
          description:
            "Invoices issued in the period (sent, partly paid or paid, as the sales-tax report counts them on accrual) one row per line, each line carrying its share of the invoice's tax so the lines add up to the report's sales and tax to the cent; or the payments received in the period. format=quickbooks and format=xero use the column names of those products' own import files (docs/import-export.md).",
          params: PortalParams,
          querystring: AccountingExportQuery,
          response: {
            200: csvFileResponse,
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const file = await accountingExport(ctx, request.auth.account.id, request.query);
        return sendCsv(reply, file.filename, file.csv);
      },
    );
  };
}
