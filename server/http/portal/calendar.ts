import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../../context';
import { buildCalendarFeed } from '../../documents/calendar';
import { commonErrors, PortalParams } from '../schemas';

export function portalCalendarRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/calendar.ics',
      {
        // Calendar apps cannot send headers: the guard also takes the feed token as ?token=.
        config: { feedToken: true },
        schema: {
          tags: ['scheduling'],
          summary: 'Calendar feed (iCalendar)',
          description:
            'Scheduled, in-progress and completed jobs and confirmed bookings from 90 days ago to a year ahead, ' +
            "in the account's time zone. Subscribe with ?token=<feed token> (Settings > Integrations).",
          params: PortalParams,
          querystring: z.object({
            token: z.string().optional().meta({ description: 'The calendar feed token (sd_feed_…).' }),
          }),
          response: {
            200: {
              description: 'An RFC 5545 calendar.',
              content: { 'text/calendar': { schema: z.string() } },
            },
            ...commonErrors,
          },
        },
      },
      async (request, reply) => {
        const body = await buildCalendarFeed(ctx, request.auth.account.id);
        return reply
          .type('text/calendar; charset=utf-8')
          .header('Content-Disposition', 'inline; filename="shopdesk.ics"')
          .header('Cache-Control', 'private, max-age=300')
          .send(body);
      },
    );
  };
}
