import type { ValidatorFactory } from '@fastify/ajv-compiler';
import type { FastifyInstance, FastifySchemaCompiler, FastifyServerOptions } from 'fastify';
import { validatorCompiler } from 'fastify-type-provider-zod';
import type { z } from 'zod';
import { unsupportedMediaType } from '../lib/errors';
import { isWrite } from './auth';
import { invalidJson, jsonRequired } from './errors';

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The route takes a CSV file as its body (Content-Type: text/csv), streamed by its own parser. */
    csvUpload?: boolean;
  }
}

/** How long the rest of a refused body is read and dropped before the connection is cut. */
export const DEFAULT_DRAIN_MS = 10_000;

/**
 * Action routes (send, complete, accept, …) take an optional body. Clients differ in what they
 * send for "no body": nothing, an empty body with Content-Type: application/json (curl -H …), or
 * a literal null. All three mean "no body", so schemas can simply mark the body optional.
 * (Fastify hands a missing body to the validator as null, hence the wrapper.)
 */
const validateWithZod: FastifySchemaCompiler<z.ZodType> = (route) => {
  const validate = validatorCompiler(route);
  return route.httpPart === 'body' ? (data: unknown) => validate(data === null ? undefined : data) : validate;
};

/**
 * Route schemas are zod: requests are checked with them (validateWithZod); responses are not checked
 * again on the way out, since the presenters build every response field by field from typed rows (the
 * schemas' z.infer types) and a second validation would only cost time on every request. Given to
 * Fastify when it is created (its `schemaController` option), so it never loads its defaults, ajv and
 * fast-json-stringify, which would compile nothing here and cost every start their loading.
 */
export const ZOD_SCHEMAS: FastifyServerOptions['schemaController'] = {
  compilersFactory: {
    // Fastify's types describe a factory's compiler as ajv's; it calls it as it would setValidatorCompiler's.
    buildValidator: (() => validateWithZod) as unknown as ValidatorFactory,
    buildSerializer: () => () => (data: unknown) => JSON.stringify(data),
  },
};

/** The instance must have been created with `schemaController: ZOD_SCHEMAS`: its routes' schemas are zod. */
export function registerJsonBodies(app: FastifyInstance, drainMs = DEFAULT_DRAIN_MS) {
  // Only JSON is parsed (text/plain and form bodies are what a cross-site form can send without a
  // preflight); anything else is 415 before it reaches a route. The client hub's HTML forms (/c/,
  // the public booking page's /book/ and a team member's invitation /join/) parse their own,
  // behind an Origin check (client-hub/routes.ts, join-routes.ts) and a per-page token.
  app.removeAllContentTypeParsers();
  app.addHook('onRequest', async (request) => {
    if (
      !isWrite(request.method) ||
      request.url.startsWith('/c/') ||
      request.url.startsWith('/book/') ||
      request.url.startsWith('/join/')
    )
      return;
    const type = request.headers['content-type'];
    const csv =
      request.routeOptions.config.csvUpload && type !== undefined && /^text\/csv\s*(;|$)/i.test(type);
    if (type !== undefined && !csv && !/^application\/json\s*(;|$)/i.test(type)) throw jsonRequired();
    const encoding = request.headers['content-encoding'];
    if (encoding !== undefined && encoding.toLowerCase() !== 'identity') {
      throw unsupportedMediaType(
        `Content-Encoding ${encoding} is not supported; send the body uncompressed.`,
        'Content-Encoding',
      );
    }
  });
  // Fastify answers a refused body (over the limit, say) with Connection: close before the client has
  // sent it all; the close then meets bytes still arriving, the kernel resets the connection, and the
  // client loses the answer. Keeping the connection lets Node read the rest and drop it, so the client
  // reads its 413; a client still sending after drainMs is cut off.
  app.addHook('onSend', (request, reply, payload, done) => {
    if (request.raw.complete || reply.getHeader('connection') !== 'close') return done(null, payload);
    reply.removeHeader('connection');
    const socket = request.raw.socket;
    const cutOff = setTimeout(() => socket.destroy(), drainMs);
    const settle = () => clearTimeout(cutOff);
    request.raw.once('end', settle);
    socket.once('close', settle);
    done(null, payload);
  });
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, raw, done) => {
    const text = String(raw);
    if (text.trim() === '') return done(null, undefined);
    try {
      done(null, JSON.parse(text));
    } catch {
      done(invalidJson(), undefined);
    }
  });
}
