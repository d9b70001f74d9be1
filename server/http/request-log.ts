import type { FastifyInstance } from 'fastify';
import { answeredElsewhere } from './lazy-app';

/**
 * One line per request (its id comes from the request's child logger), so an owner's support
 * question can be matched to what the server did. Server errors are logged with their stacks by
 * the error handler.
 */
export function registerRequestLog(app: FastifyInstance) {
  app.addHook('onResponse', (request, reply, done) => {
    if (answeredElsewhere(request)) return done();
    request.log.info(
      {
        method: request.method,
        route: request.routeOptions.url ?? null,
        status: reply.statusCode,
        duration_ms: Math.round(reply.elapsedTime),
      },
      'request',
    );
    done();
  });
}
