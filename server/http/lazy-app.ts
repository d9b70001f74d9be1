// Routes a start's first answer does not need (the portal API, the v1 API) live in Fastify instances of
// their own, built when first needed (by the first request for one, at the latest): registering them
// cost ~300 ms of a ~1.5 s start's CPU (Fastify and its router compile per route, outside the code
// cache), and most starts never hear from the v1 API at all. The main app keeps stand-ins for their paths and
// hands such a request over whole; the other instance is made as the main app is (server/http/app.ts,
// newApp), with the same hooks, error handler and body parsers, so the request meets what it met when
// the routes lived in the main app. Requests arriving while it is built wait for it.
import type { FastifyInstance, FastifyRequest } from 'fastify';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A stand-in route: the request goes whole to the app this resolves to (see forwardToLazyApp). */
    forwardTo?: () => Promise<FastifyInstance>;
  }
}

const handedOver = new WeakSet<FastifyRequest>();

/**
 * Whether the main app handed this request to another app, which answers it: Fastify still runs the
 * main app's onResponse hooks when the answer is sent, and what they do (a log line) is done once, there.
 */
export const answeredElsewhere = (request: FastifyRequest) => handedOver.has(request);

/**
 * Hands a request that reached a stand-in (forwardPrefix) to its app. It is handed over before any of
 * the main app's own hooks runs, the body still unread, so it passes one app's hooks, never both:
 * register this before any other onRequest hook.
 */
export function forwardToLazyApp(app: FastifyInstance) {
  app.addHook('onRequest', (request, reply, done) => {
    const forwardTo = request.routeOptions.config.forwardTo;
    if (!forwardTo) return done();
    forwardTo().then((target) => {
      handedOver.add(request);
      reply.hijack();
      target.routing(request.raw, reply.raw);
    }, done);
  });
}

/** The instance `build` makes, built once on first use (again after a failed build), closed with `app`. */
export function lazyApp(app: FastifyInstance, build: () => Promise<FastifyInstance>) {
  let built: Promise<FastifyInstance> | undefined;
  const get = () => {
    built ??= build().catch((error: unknown) => {
      built = undefined;
      throw error;
    });
    return built;
  };
  app.addHook('onClose', async () => {
    const target = await built?.catch(() => undefined);
    await target?.close();
  });
  return get;
}

/** Stand-ins for every path under `prefix` (any method), forwarded to the app `forwardTo` gives. */
export function forwardPrefix(
  app: FastifyInstance,
  prefix: string,
  forwardTo: () => Promise<FastifyInstance>,
) {
  const options = { config: { forwardTo }, schema: { hide: true } };
  const unreachable = () => {
    throw new Error(`${prefix} is answered by its own app`);
  };
  app.all(prefix, options, unreachable);
  app.all(`${prefix}/*`, options, unreachable);
}
