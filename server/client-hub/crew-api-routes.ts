import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodType } from 'zod';
import { CrewActionInput, CrewPhotoInput } from '../../shared/schemas/crew';
import { RateLimiter } from '../http/rate-limiter';
import type { Clock } from '../lib/clock';
import { rateLimited, unauthorized, validationError } from '../lib/errors';
import type { CrewCaller } from './crew-record';
import { recordCrewAction, recordCrewPhoto } from './crew-record';
import { crewWeek } from './crew-week';
import { memberFromRows } from './member-sign-in';
import type { ClientHubRows } from './rows';

/**
 * Requests a minute: per session, and per address whatever the cookie (a crew's phones may share
 * one address). A phone coming back with a day's queue sends well under it; one that hits it waits
 * for Retry-After and goes on (crew-app-script.ts).
 */
export const CREW_SESSION_LIMIT = 120;
export const CREW_ADDRESS_LIMIT = 300;
const WINDOW_MS = 60_000;

/** A 2 MB photo is about 2.7 MB as base64: room for it and the JSON around it. */
const PHOTO_BODY_LIMIT = 3 * 1024 * 1024;

export interface CrewRouteOptions {
  /** The cookie a member session rides in: `sd_member` on the hosted hub, the install's own session cookie. */
  cookieName(app: FastifyInstance): string;
  /** Whether this server serves the business's crew (an install: when it serves the client hub). */
  serves(accountId: string): Promise<boolean>;
}

function cookie(request: FastifyRequest, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? '').split(';')) {
    const at = part.indexOf('=');
    if (at > 0 && part.slice(0, at).trim() === name) return decodeURIComponent(part.slice(at + 1).trim());
  }
  return undefined;
}

function parse<T>(schema: ZodType<T>, body: unknown): T {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0]!;
  throw validationError(`${issue.path.join('.') || 'body'}: ${issue.message}`, issue.path.join('.'));
}

/**
 * The crew's phone API under /crew/api (docs/crew.md, "The phone"), over the rows of whichever
 * server holds the business. Who may call every route: a member signed in with a live session
 * (memberFromRows: not revoked, not expired, still on the team), for their own visits only; no
 * session, a customer's client link or anything else gets 401, another member's visit 403.
 */
export function crewApiRoutes(rows: ClientHubRows, clock: Clock, options: CrewRouteOptions) {
  return async (app: FastifyInstance) => {
    const caller = async (request: FastifyRequest): Promise<CrewCaller & { canSeePrices: boolean }> => {
      const token = cookie(request, options.cookieName(app));
      const signedIn = token ? await memberFromRows(rows, token, clock.now()) : undefined;
      if (!signedIn?.member.id || !signedIn.member.sessionId || !(await options.serves(signedIn.accountId)))
        throw unauthorized('Sign in with the link your team sent you.');
      return {
        accountId: signedIn.accountId,
        memberId: signedIn.member.id,
        sessionId: signedIn.member.sessionId,
        canSeePrices: signedIn.member.canSeePrices,
      };
    };
    const limiter = new RateLimiter();
    app.addHook('onRequest', async (request, reply) => {
      reply.header('Cache-Control', 'no-store');
      reply.header('X-Content-Type-Options', 'nosniff');
      const session = cookie(request, options.cookieName(app))?.split('.')[0];
      const rules = [{ bucket: `address:${request.ip}`, limit: CREW_ADDRESS_LIMIT, windowMs: WINDOW_MS }];
      if (session)
        rules.push({ bucket: `session:${session}`, limit: CREW_SESSION_LIMIT, windowMs: WINDOW_MS });
      const decision = limiter.take(rules, clock.now().getTime());
      if (!decision.allowed)
        throw rateLimited('Too many requests from this phone: wait a minute.', decision.retryAfterSeconds);
    });

    app.get('/crew/api/week', { schema: { hide: true } }, async (request) => {
      const who = await caller(request);
      return crewWeek(rows, who.accountId, who, clock.now());
    });

    app.post('/crew/api/actions', { schema: { hide: true } }, async (request, reply) => {
      const who = await caller(request);
      const recorded = await recordCrewAction(rows, who, parse(CrewActionInput, request.body), clock.now());
      return reply.code(202).send(recorded);
    });

    app.post(
      '/crew/api/photos',
      { schema: { hide: true }, bodyLimit: PHOTO_BODY_LIMIT },
      async (request, reply) => {
        const who = await caller(request);
        return reply
          .code(201)
          .send(await recordCrewPhoto(rows, who, parse(CrewPhotoInput, request.body), clock.now()));
      },
    );
  };
}
