import type { FastifyInstance, FastifyRequest } from 'fastify';
import { type Actor, apiKeyActor, memberActor, OWNER_ACTOR, runAs, SYSTEM_ACTOR } from '../lib/actor';

/**
 * Every request's writes name who made them (docs/crew-design.md, "Who made each change"): the
 * handler and everything it starts run as the request's actor, read when a row changes, so a
 * request signed in later in its hooks is known by then.
 */
export function registerRequestActor(app: FastifyInstance): void {
  app.addHook('preHandler', (request, _reply, done) => {
    runAs(() => requestActor(request), done);
  });
}

/** A key names itself (portal and v1 keys); a session its member, or the owner for the install's own sign-in. */
export function requestActor(request: FastifyRequest): Actor {
  const auth = request.auth;
  if (!auth) return SYSTEM_ACTOR;
  if (auth.key) return apiKeyActor(auth.key.keyId);
  return auth.member.id ? memberActor(auth.member.id) : OWNER_ACTOR;
}
