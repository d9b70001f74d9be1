import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ExportQuery } from '../../../shared/schemas/export';
import type { AppContext } from '../../context';
import { exportAccount } from '../../documents/export';
import { todayIn } from '../../lib/clock';
import { commonErrors, PortalParams } from '../schemas';

export function portalExportRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/export',
      {
        schema: {
          tags: ['settings'],
          summary: 'Export the whole account',
          description:
            'Every resource of the account (configuration without secrets, customers with tags and notes, team, jobs, bookings, quotes and invoices with lines and taxes, payments, reviews, e-mails, events), streamed as an attachment. Money is in major units.',
          params: PortalParams,
          querystring: ExportQuery,
          response: {
            200: {
              description: 'The export file: JSON, or with format=csv a zip of CSV files.',
              content: {
                'application/json': { schema: z.record(z.string(), z.unknown()) },
                'application/zip': { schema: z.any().meta({ type: 'string', format: 'binary' }) },
              },
            },
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const account = request.auth.account;
        const date = todayIn(ctx.clock, account.config.timezone);
        const file = await exportAccount(ctx, account.id, request.query.format, date);
        return reply
          .type(file.contentType)
          .header('Content-Disposition', `attachment; filename="${file.filename}"`)
          .header('Cache-Control', 'no-store')
          .send(file.stream);
      },
    );
  };
}
