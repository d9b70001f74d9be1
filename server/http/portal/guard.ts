import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../../context';
import { forbidden, planRequired, rateLimited, unauthorized } from '../../lib/errors';
import {
  authenticateKey,
  authenticateSessionCookie,
  bearerToken,
  isWrite,
  missingCredentials,
  type RequestAuth,
  sessionToken,
} from '../auth';
import { RateLimiter } from '../rate-limiter';
import {
  checkRole,
  type OperationRule,
  operationKey,
  type Permission,
  PORTAL_OPERATIONS,
  ruleOf,
} from './permissions';

export const PORTAL_LIMIT_PER_MINUTE = 100;
/** The UI's own session makes several calls per screen; it gets a larger budget than integrations' keys. */
export const SESSION_LIMIT_PER_MINUTE = 1000;

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Routes that calendar apps call: they also accept the feed token as ?token=. */
    feedToken?: boolean;
    /** Who may call the route: its entry of PORTAL_OPERATIONS, set when the route is registered. */
    operation?: OperationRule;
  }
}

/**
 * Gives every portal route its entry of the permission table, and refuses (the server does not
 * start) a route that has none, so no route can forget to say who may call it.
 */
export function registerOperationTable(
  app: FastifyInstance,
  table: Readonly<Record<string, Permission | OperationRule>> = PORTAL_OPERATIONS,
) {
  const prefix = app.prefix;
  app.addHook('onRoute', (route) => {
    const methods = Array.isArray(route.method) ? route.method : [route.method];
    const path = route.url.slice(prefix.length);
    const keys = [...new Set(methods.map((method) => operationKey(method, path)))];
    const missing = keys.find((key) => !table[key]);
    if (missing) {
      throw new Error(
        `The portal route ${missing} has no entry in server/http/portal/permissions.ts: say who may call it.`,
      );
    }
    if (keys.length > 1)
      throw new Error(`Register ${keys.join(', ')} one method at a time: each has its own entry.`);
    // The OpenAPI document says who may call it (server/http/docs.ts), when it is first built.
    route.config = { ...route.config, operation: ruleOf(table[keys[0]!]!) };
  });
}

async function identify(ctx: AppContext, request: FastifyRequest): Promise<RequestAuth> {
  const bearer = bearerToken(request);
  if (bearer) return authenticateKey(ctx, bearer);
  const feed = (request.query as { token?: unknown } | undefined)?.token;
  if (request.routeOptions.config.feedToken && typeof feed === 'string') {
    const auth = await authenticateKey(ctx, feed);
    if (auth.key?.kind !== 'feed') throw unauthorized('token must be the calendar feed token.');
    return auth;
  }
  const session = sessionToken(request);
  if (session) return authenticateSessionCookie(ctx, session);
  throw missingCredentials();
}

function setRateHeaders(reply: FastifyReply, limit: number, remaining: number, resetAt: number) {
  reply.header('X-RateLimit-Limit', limit);
  reply.header('X-RateLimit-Remaining', remaining);
  reply.header('X-RateLimit-Reset', Math.ceil(resetAt / 1000));
}

/**
 * Auth, account scoping, rate limit and plan gate for every portal route (contract part 2):
 * the key must be this account's portal key (or its UI session, or for the feed its feed token),
 * 100 requests a minute per key, and writes need the platform plan.
 */
export function registerPortalGuard(app: FastifyInstance, ctx: AppContext) {
  registerOperationTable(app);
  const limiter = new RateLimiter();
  app.addHook('onRequest', async (request, reply) => {
    const auth = await identify(ctx, request);
    const clientId = (request.params as { client_id?: string }).client_id;
    if (auth.key && auth.key.kind === 'v1') {
      throw forbidden('This is a v1 API key; the portal API takes the portal key.');
    }
    if (auth.key?.kind === 'feed' && !request.routeOptions.config.feedToken) {
      throw forbidden('The calendar feed token only opens the calendar feed.');
    }
    if (auth.account.id !== clientId) {
      throw forbidden('This key belongs to another account.');
    }
    const operation = request.routeOptions.config.operation;
    if (!operation) throw new Error(`${request.method} ${request.routeOptions.url} has no permission entry`);
    if (operation.sessionOnly && auth.via !== 'session') throw forbidden(operation.sessionOnly);
    checkRole(auth.member, operation.needs);
    const subject = auth.key ? auth.key.keyId : `session:${auth.account.id}`;
    const limit = auth.via === 'session' ? SESSION_LIMIT_PER_MINUTE : PORTAL_LIMIT_PER_MINUTE;
    const decision = limiter.take([{ bucket: subject, limit, windowMs: 60_000 }], ctx.clock.now().getTime());
    const window = decision.windows[0]!;
    setRateHeaders(reply, window.limit, window.remaining, window.resetAt);
    if (!decision.allowed) {
      throw rateLimited(`Too many requests: the limit is ${limit} a minute.`, decision.retryAfterSeconds);
    }
    if (isWrite(request.method) && auth.account.plan !== 'platform') {
      throw planRequired('Changing data through the portal needs the Platform plan.');
    }
    request.auth = auth;
  });
}
