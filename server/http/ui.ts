import { existsSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance, FastifyReply } from 'fastify';

/** Where `vite build` puts the portal UI (vite.config.ts). */
export const DEFAULT_RENDERER_DIR = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../dist/renderer',
);

/**
 * The UI only talks to its own origin and never runs inline code, so everything but 'self' is refused.
 * React sets styles through the CSSOM, which style-src does not govern, so no 'unsafe-inline' is needed.
 */
export const UI_CONTENT_SECURITY_POLICY = contentSecurityPolicy("'self'");

/**
 * Swagger UI at /docs: its own scripts and styles, the document fetched from /docs/json, and its
 * images inlined as data: URLs. It must not be framed (a click-jacked "Try it out" would send a
 * request with whatever key the page was given). The one inline style is the <style> of Swagger's
 * own top-bar logo, allowed by its hash rather than by 'unsafe-inline'.
 */
export const DOCS_CONTENT_SECURITY_POLICY = contentSecurityPolicy(
  "'self' 'sha256-RL3ie0nH+Lzz2YNqQN83mnU0J1ot4QL7b99vMdIX99w='",
);

/** The one policy every page shares (the UI, /docs, the client hub); only where styles may come from differs. */
export function contentSecurityPolicy(styleSrc: string): string {
  return [
    "default-src 'self'",
    "script-src 'self'",
    `style-src ${styleSrc}`,
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** Paths owned by the APIs and docs: an unknown one there is an API 404, never the UI's index.html. */
const NOT_UI = /^\/(api|docs|openapi\.json|health|sign-in)(\/|$|\?)/;

export function uiHeaders(reply: FastifyReply) {
  reply.header('Content-Security-Policy', UI_CONTENT_SECURITY_POLICY);
  reply.header('X-Content-Type-Options', 'nosniff');
  reply.header('Referrer-Policy', 'no-referrer');
}

function isFile(root: string, relative: string): boolean {
  const full = path.resolve(root, relative);
  if (!full.startsWith(root + path.sep)) return false;
  try {
    return statSync(full).isFile();
  } catch {
    return false;
  }
}

function safeDecode(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

const NOT_BUILT_PAGE = `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Shopdesk</title></head>
<body><h1>The portal UI is not built</h1>
<p>Run <code>npm run build:renderer</code> (or start with <code>npm run serve</code>, which builds it when missing).
The APIs are running: see <a href="/docs">/docs</a>.</p></body></html>`;

/**
 * Serves the built portal UI at `/`: hashed assets cached for a year, index.html never cached (so a new
 * build is picked up at once), and every other GET that is not an API path answered with index.html so
 * the UI's own routes survive a reload. `pageSent`: called once index.html has gone out, as its
 * scripts load.
 */
export function uiRoutes(options: { root?: string; pageSent?: () => void } = {}) {
  const root = path.resolve(options.root ?? DEFAULT_RENDERER_DIR);
  return async (app: FastifyInstance) => {
    await app.register(fastifyStatic, { root, serve: false });

    const handler = async (request: { url: string }, reply: FastifyReply) => {
      const urlPath = safeDecode(request.url.split('?')[0] ?? '/');
      if (NOT_UI.test(urlPath)) return reply.callNotFound();
      uiHeaders(reply);
      const relative = urlPath.replace(/^\/+/, '');
      if (relative && isFile(root, relative)) {
        const immutable = relative.startsWith('assets/');
        reply.header(
          'Cache-Control',
          immutable ? 'public, max-age=31536000, immutable' : 'public, max-age=3600',
        );
        return reply.sendFile(relative, { cacheControl: false });
      }
      if (!existsSync(path.join(root, 'index.html'))) {
        return reply.status(503).type('text/html; charset=utf-8').send(NOT_BUILT_PAGE);
      }
      reply.header('Cache-Control', 'no-cache');
      const { pageSent } = options;
      if (pageSent) reply.raw.once('finish', () => setImmediate(pageSent));
      return reply.sendFile('index.html', { cacheControl: false });
    };

    app.get('/', { schema: { hide: true }, config: { withoutDatabase: true } }, handler);
    app.get('/*', { schema: { hide: true }, config: { withoutDatabase: true } }, handler);
  };
}
