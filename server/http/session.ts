import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AppContext } from '../context';
import { endSession, redeemSignInToken, SESSION_TTL_MS } from '../domain/sessions';
import { authenticateSessionCookie, SESSION_COOKIE, sessionToken } from './auth';
import { commonErrors } from './schemas';

const SessionInfo = z
  .object({
    client_id: z.string(),
    business_name: z.string(),
    plan: z.enum(['basic', 'platform']),
    api_plan: z.enum(['none', 'lite', 'essential', 'business_suite', 'growth']),
    currency: z.string(),
    locale: z.string(),
    timezone: z.string(),
  })
  .meta({ id: 'SessionInfo' });

/** The portal UI's sign-in: a one-time link becomes an http-only session cookie; the page never holds a key. */
export function sessionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sign-in',
      { schema: { hide: true, querystring: z.object({ token: z.string().min(1) }) } },
      async (request, reply) => {
        const { session } = await redeemSignInToken(ctx, request.query.token);
        reply.setCookie(SESSION_COOKIE, session, {
          path: '/',
          httpOnly: true,
          sameSite: 'strict',
          maxAge: SESSION_TTL_MS / 1000,
        });
        return reply.redirect('/', 303);
      },
    );

    app.get(
      '/api/session',
      {
        schema: {
          tags: ['session'],
          summary: 'Who the signed-in UI session belongs to',
          response: { 200: SessionInfo, ...commonErrors },
        },
      },
      async (request) => {
        const { account } = await authenticateSessionCookie(ctx, sessionToken(request) ?? '');
        return {
          client_id: account.id,
          business_name: account.config.business_name,
          plan: account.plan,
          api_plan: account.api_plan,
          currency: account.config.currency,
          locale: account.config.locale,
          timezone: account.config.timezone,
        };
      },
    );

    app.post(
      '/api/session/sign-out',
      { schema: { tags: ['session'], summary: 'End the UI session', response: { 204: z.null() } } },
      async (request, reply) => {
        const token = sessionToken(request);
        if (token) await endSession(ctx, token);
        reply.clearCookie(SESSION_COOKIE, { path: '/' });
        return reply.status(204).send(null);
      },
    );
  };
}
