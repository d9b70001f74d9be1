import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ApiError } from '../lib/errors';
import { isWrite, sessionToken } from './auth';

/**
 * Whether a browser says another origin's page made this request. Absent headers mean no browser
 * sent it (curl, an integration): browsers send Sec-Fetch-Site to localhost and Origin on every
 * write. "none" is the owner's own doing (the address bar, a link from a terminal). "same-site" is
 * not enough: every port of 127.0.0.1 is the same site, and any local program can serve a page there.
 */
export function isCrossOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin' && site !== 'none') return true;
  const origin = request.headers.origin;
  return origin !== undefined && originHost(origin) !== request.headers.host;
}

/** The host of an Origin header; the scheme is left out so a TLS-terminating proxy in front does not matter. */
function originHost(origin: string): string | null {
  try {
    return new URL(origin).host;
  } catch {
    return null;
  }
}

/**
 * CSRF defence for the UI's session cookie: a write that rides on the cookie must come from the
 * UI's own pages. Requests with an Authorization header are left alone: a browser never adds one
 * by itself, and the guards do not look at the cookie when a key is sent.
 */
export function registerCsrfCheck(app: FastifyInstance) {
  app.addHook('onRequest', async (request) => {
    if (!isWrite(request.method) || request.headers.authorization || !sessionToken(request)) return;
    if (isCrossOrigin(request)) {
      throw new ApiError(
        403,
        'cross_origin_request',
        "Changes through the signed-in session are accepted only from Shopdesk's own pages.",
      );
    }
  });
}
