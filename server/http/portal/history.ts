import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { HistoryEntry, HistoryQuery, type HistoryRecordType } from '../../../shared/schemas/history';
import type { AppContext } from '../../context';
import { listHistory, restoreHistoryEntry } from '../../domain/record-history';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['history'];
const WHO =
  "The account's portal key or the owner's signed-in session; other accounts' keys and v1 keys get 403.";

/** Each record's history on this install, and putting back a value a sync replaced. */
export function portalHistoryRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/history',
      {
        schema: {
          tags,
          summary: "A record's history",
          description: `What changed on a customer, invoice, quote or job, newest first, as this install saw it: old and new value, who, on which install, when; a value typed here that a sync replaced is marked \`replaced\`. Kept 90 days, at most 200 entries per record. ${WHO}`,
          params: PortalParams,
          querystring: HistoryQuery,
          response: { 200: z.object({ data: z.array(HistoryEntry) }), ...commonErrors },
        },
      },
      async (request) => {
        const [type, id] = request.query.record.split('/') as [HistoryRecordType, string];
        return { data: await listHistory(ctx, request.auth.account.id, type, id) };
      },
    );

    app.post(
      '/history/:entry_id/restore',
      {
        schema: {
          tags,
          summary: 'Put a replaced value back',
          description: `Writes the entry's old value as a new edit, which syncs to every install like any other. Only a \`replaced\` entry, once; a status is not put back (409), nor an e-mail another customer holds (409). ${WHO}`,
          params: PortalParams.extend({ entry_id: z.string() }),
          response: { 200: HistoryEntry, ...commonErrors },
        },
      },
      (request) => restoreHistoryEntry(ctx, request.auth.account.id, request.params.entry_id),
    );
  };
}
