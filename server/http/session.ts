import { createHash } from 'node:crypto';
import { realpathSync } from 'node:fs';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { MemberRole } from '../../shared/schemas/team';
import { zoneSubset } from '../../shared/zone-database';
import type { AppContext } from '../context';
import { endSession, redeemSignInToken, SESSION_TTL_MS } from '../domain/sessions';
import { memberName } from '../domain/team';
import { ApiError } from '../lib/errors';
import { authenticateSessionCookie, sessionToken } from './auth';
import { isCrossOrigin } from './csrf';
import { commonErrors } from './schemas';
import { SIGN_IN_PAGE_POLICY, signInLinkPage } from './sign-in-page';
import { uiHeaders } from './ui';

const SessionInfo = z
  .object({
    client_id: z.string(),
    business_name: z.string(),
    plan: z.enum(['basic', 'platform']),
    api_plan: z.enum(['none', 'lite', 'essential', 'business_suite', 'growth']),
    currency: z.string(),
    locale: z.string(),
    timezone: z.string(),
    zone: z
      .object({
        version: z.string(),
        source: z.string(),
        zones: z.array(z.string()),
        links: z.array(z.string()),
      })
      .meta({
        description:
          "The rules of `timezone` from the server's zone database, packed as in shared/time-zone-data.json: the UI shows dates with them and loads the whole table only where it lists zones.",
      }),
    member: z
      .object({
        id: z.string().nullable().meta({ description: "null for the install's owner sign-in link." }),
        name: z.string().nullable(),
        role: MemberRole,
        can_see_prices: z.boolean(),
      })
      .meta({
        description:
          'Who is signed in: the UI offers only what the role may do (docs/crew.md "Roles"); the server checks every call.',
      }),
  })
  .meta({ id: 'SessionInfo' });

function confirmSignInPage(url: string): string {
  const href = url.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign in to Shopdesk</title></head>
<body><h1>Sign in to Shopdesk?</h1>
<p>Another page sent you to this sign-in link. Continue only if you opened it yourself: it replaces the
business you are signed in to.</p>
<p><a href="${href}">Continue signing in</a></p></body></html>`;
}

/**
 * Cookies ignore the port, so every Shopdesk on 127.0.0.1 (a second data folder, a test install) would
 * share one cookie and each sign-in would end the other install's session. Each data folder names its
 * own from a hash of its real path: the same across restarts, another one for a copy of the folder.
 */
export function sessionCookieName(dataDir: string): string {
  const digest = createHash('sha256').update(realpathSync.native(dataDir)).digest('hex');
  return `sd_session_${digest.slice(0, 12)}`;
}

/** The portal UI's sign-in: a one-time link becomes an http-only session cookie; the page never holds a key. */
export function sessionRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/sign-in',
      { schema: { hide: true, querystring: z.object({ token: z.string().optional() }) } },
      async (request, reply) => {
        // Login CSRF: another site (any other port of 127.0.0.1 included) could otherwise navigate
        // the browser here with its own link and swap the owner's session for the attacker's
        // account. Such a navigation only gets a page asking the owner to continue; the click on
        // it is a same-origin navigation.
        if (isCrossOrigin(request)) {
          uiHeaders(reply);
          return reply
            .header('Cache-Control', 'no-store')
            .type('text/html; charset=utf-8')
            .send(confirmSignInPage(request.url));
        }
        let session: string;
        try {
          ({ session } = await redeemSignInToken(ctx, request.query.token ?? ''));
        } catch (error) {
          if (!(error instanceof ApiError) || error.status >= 500) throw error;
          return reply
            .status(error.status)
            .header('content-security-policy', SIGN_IN_PAGE_POLICY)
            .type('text/html; charset=utf-8')
            .send(signInLinkPage(error.message));
        }
        reply.setCookie(app.sessionCookie, session, {
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
        const { account, member } = await authenticateSessionCookie(ctx, sessionToken(request) ?? '');
        const name = member.id ? await memberName(ctx.db, account.id, member.id) : null;
        return {
          client_id: account.id,
          business_name: account.config.business_name,
          plan: account.plan,
          api_plan: account.api_plan,
          currency: account.config.currency,
          locale: account.config.locale,
          timezone: account.config.timezone,
          zone: zoneSubset(account.config.timezone),
          member: { id: member.id, name, role: member.role, can_see_prices: member.canSeePrices },
        };
      },
    );

    app.post(
      '/api/session/sign-out',
      { schema: { tags: ['session'], summary: 'End the UI session', response: { 204: z.null() } } },
      async (request, reply) => {
        const token = sessionToken(request);
        if (token) await endSession(ctx, token);
        reply.clearCookie(app.sessionCookie, { path: '/' });
        return reply.status(204).send(null);
      },
    );
  };
}
