import type { FastifyInstance } from 'fastify';
import { contentSecurityPolicy } from '../http/ui';
import type { Clock } from '../lib/clock';
import { type CrewRouteOptions, crewApiRoutes } from './crew-api-routes';
import { CREW_APP_CSS, CREW_APP_HTML, CREW_MANIFEST } from './crew-app-page';
import { CREW_APP_JS, CREW_SERVICE_WORKER } from './crew-app-script';
import { CREW_PASSKEY_JS } from './crew-passkey-script';
import type { ClientHubRows } from './rows';

const CSP = contentSecurityPolicy("'self'");

const FILES: Record<string, { type: string; body: string }> = {
  '/crew/': { type: 'text/html; charset=utf-8', body: CREW_APP_HTML },
  '/crew/app.js': { type: 'text/javascript; charset=utf-8', body: CREW_APP_JS },
  '/crew/passkey.js': { type: 'text/javascript; charset=utf-8', body: CREW_PASSKEY_JS },
  '/crew/app.css': { type: 'text/css; charset=utf-8', body: CREW_APP_CSS },
  '/crew/sw.js': { type: 'text/javascript; charset=utf-8', body: CREW_SERVICE_WORKER },
  '/crew/manifest.webmanifest': { type: 'application/manifest+json', body: CREW_MANIFEST },
};

/**
 * The crew's phone app at /crew/ (docs/crew.md, "The phone"), served by the hosted hub and by an
 * install serving its client hub: the app's own files, which anyone may load (they hold no data),
 * and its API, which only a signed-in member may call (crew-api-routes.ts).
 */
export function crewRoutes(rows: ClientHubRows, clock: Clock, options: CrewRouteOptions) {
  return async (app: FastifyInstance) => {
    for (const [path, file] of Object.entries(FILES)) {
      app.get(path, { schema: { hide: true } }, (_request, reply) => {
        reply.header('Content-Security-Policy', CSP);
        reply.header('X-Content-Type-Options', 'nosniff');
        // The service worker keeps the app for no signal; the browser asks again on every open.
        reply.header('Cache-Control', 'no-cache');
        if (path === '/crew/sw.js') reply.header('Service-Worker-Allowed', '/crew/');
        return reply.type(file.type).send(file.body);
      });
    }
    await app.register(crewApiRoutes(rows, clock, options));
  };
}
