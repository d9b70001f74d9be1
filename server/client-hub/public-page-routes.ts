import type { FastifyInstance } from 'fastify';
import { contentSecurityPolicy } from '../http/ui';
import { passThrough } from './openapi';

const CSP = contentSecurityPolicy("'self'");

/**
 * What every page strangers reach (the client hub's, a member's way in) starts with: HTML forms
 * parsed as plain fields, a strict CSP, no sniffing, no caching.
 */
export function publicPages(app: FastifyInstance): void {
  passThrough(app);
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: 16 * 1024 },
    (_request, body, done) => done(null, Object.fromEntries(new URLSearchParams(String(body)))),
  );
  app.addHook('onRequest', async (_request, reply) => {
    reply.header('Content-Security-Policy', CSP);
    reply.header('X-Content-Type-Options', 'nosniff');
    // Never the page's address (its token) to another site; 'no-referrer' would also make the
    // browser send `Origin: null` on the page's own forms, which the Origin check refuses.
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('Cache-Control', 'no-store');
  });
}
