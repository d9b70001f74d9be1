import type { IncomingHttpHeaders } from 'node:http';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';

/** A CSV upload of the largest size allowed (200 MB) over a link of about 2 Mbit/s. */
export const DEFAULT_UPLOAD_MS = 15 * 60_000;

/** What Node itself writes to a client whose request did not arrive in time. */
const TIMED_OUT = 'HTTP/1.1 408 Request Timeout\r\nConnection: close\r\n\r\n';

/**
 * Every request must arrive whole (headers and body) within `requestMs`; a CSV upload route
 * (`config.csvUpload`) gets `uploadMs`. Node's own requestTimeout does the first for every route
 * alike, and a 200,000-row client export (42 MB) sent from a slow link, or to a loaded machine,
 * arrives in more than a minute: Node answered 408 in the middle of the upload and closed the
 * connection ("other side closed" at the client). So Node's is off and this one is per route;
 * a body that stalls is still cut by the idle timeout whatever the route.
 */
export function registerRequestDeadline(app: FastifyInstance, requestMs: number, uploadMs: number): void {
  app.addHook('onRequest', async (request, reply) => {
    const raw = request.raw;
    const ms = request.routeOptions.config.csvUpload ? uploadMs : requestMs;
    if (raw.complete || ms <= 0) return;
    const timer = setTimeout(() => {
      if (raw.complete) return;
      const socket = raw.socket;
      if (reply.raw.headersSent) socket.destroy();
      else socket.end(TIMED_OUT);
    }, ms);
    const settle = () => clearTimeout(timer);
    raw.once('end', settle);
    raw.once('close', settle);
    reply.raw.once('close', settle);
  });
}

/** Whether a body follows the headers: until it is in, the idle timeout guards a client that stops sending. */
const hasBody = (headers: IncomingHttpHeaders) =>
  headers['transfer-encoding'] !== undefined || Number(headers['content-length'] ?? 0) > 0;

/**
 * The idle timeout is for a client that stops sending; once a request is in (its body read, or
 * none to read), the server may take longer than that to answer: an upload counting a 200,000-row
 * file, or a write waiting out a customer import's transaction (up to a minute, sqlite-driver.ts),
 * and any request queued behind that write on the server's connection, which waits from its
 * first hook (the portal's session check) on. Node would close the connection under it; the
 * timeout is off until the answer is sent, then back for the next request.
 */
export function registerAnswerTime(app: FastifyInstance): void {
  const holdOpen = (request: FastifyRequest, reply: FastifyReply) => {
    const socket = request.raw.socket;
    // A request made in-process (Fastify's inject) has no network connection to keep open.
    if (typeof socket?.setTimeout !== 'function') return;
    const idle = socket.timeout ?? 0;
    socket.setTimeout(0);
    reply.raw.once('finish', () => socket.setTimeout(idle));
  };
  app.addHook('onRequest', async (request, reply) => {
    if (!hasBody(request.headers)) holdOpen(request, reply);
  });
  app.addHook('preHandler', async (request, reply) => {
    if (hasBody(request.headers)) holdOpen(request, reply);
  });
}
