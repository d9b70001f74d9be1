import type { IncomingMessage } from 'node:http';
import type { SwaggerOptions } from '@fastify/swagger';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  type RouteOptions,
} from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { MAX_PARAM_LENGTH } from './errors';
import { documentedSchema, sharedComponents } from './openapi';
import { type OperationRule, whoMay } from './portal/permissions';
import { DOCS_CONTENT_SECURITY_POLICY } from './ui';
import { bareExampleBodies } from './v1/examples';

type OpenApiHead = NonNullable<Extract<SwaggerOptions, { openapi?: unknown }>['openapi']>;

/** The document's own part: what it is, where, and how callers authenticate. */
const OPENAPI: OpenApiHead = {
  openapi: '3.1.0',
  servers: [{ url: '/', description: 'This Shopdesk installation (http://127.0.0.1:4300 by default)' }],
  info: {
    title: 'Shopdesk API',
    version: '1.0.0',
    description:
      'The portal API (/api/portal/{client_id}) and the v1 API (/api/v1) of a Shopdesk installation. ' +
      'Both serve the same data. Authenticate with Authorization: Bearer <API_KEY>.',
  },
  components: {
    securitySchemes: {
      bearer: { type: 'http', scheme: 'bearer', description: 'sd_portal_… or sd_live_…/sd_test_…' },
      syncDevice: {
        type: 'http',
        scheme: 'bearer',
        description: 'A device credential sd_sync_… (sync API)',
      },
    },
  },
  security: [{ bearer: [] }],
};

/** Set on an injected request the docs app could not answer: the main app answers it instead. */
const handedBack = Symbol('handed back to the main app');
type Injected = IncomingMessage & { [handedBack]?: { error: unknown } | 'not found' };

/** Headers the main app sets itself for the payload it sends, or that belong to one connection. */
const NOT_COPIED = new Set(['content-length', 'date', 'connection', 'keep-alive', 'transfer-encoding']);

type RouteSchema = { description?: string; hide?: boolean };

/** A portal or session route's description ends with who may call it: its permission table entry. */
function withRoles(schema: RouteSchema, operation: OperationRule | undefined): RouteSchema {
  if (!operation) return schema;
  return { ...schema, description: [schema.description, whoMay(operation)].filter(Boolean).join('\n\n') };
}

/** Each route as the document describes it: the main app's own copies of them only serve the docs. */
function documentedRoute(route: RouteOptions): RouteOptions | undefined {
  const schema = route.schema as RouteSchema | undefined;
  // @fastify/swagger leaves out the HEAD twin of every GET, and a hidden route documents nothing.
  if (route.method === 'HEAD' || schema?.hide) return undefined;
  return {
    method: route.method,
    url: route.url,
    ...(schema ? { schema: withRoles(schema, route.config?.operation) } : {}),
    ...(route.constraints ? { constraints: route.constraints } : {}),
    handler: () => undefined,
  };
}

/**
 * The document and Swagger UI in a Fastify instance of their own, given copies of the main app's
 * routes (with their schemas) once it is ready: @fastify/swagger describes the same routes, in the
 * same order, with the same transforms as it did inside the main app.
 */
async function buildDocsApp(allRoutes: () => Promise<readonly RouteOptions[]>): Promise<FastifyInstance> {
  const [{ default: swagger }, { default: swaggerUi }, routes] = await Promise.all([
    import('@fastify/swagger'),
    import('@fastify/swagger-ui'),
    allRoutes(),
  ]);
  const docs = Fastify({
    logger: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
  });
  // Its copies of the routes never run: nothing to validate or serialize.
  docs.setValidatorCompiler(() => (data) => ({ value: data }));
  docs.setSerializerCompiler(() => (data) => JSON.stringify(data));
  docs.setNotFoundHandler((request, reply) => {
    (request.raw as Injected)[handedBack] = 'not found';
    return reply.code(404).send();
  });
  docs.setErrorHandler((error, request, reply) => {
    (request.raw as Injected)[handedBack] = { error };
    return reply.code(500).send();
  });
  await docs.register(swagger, {
    openapi: OPENAPI,
    transform: (input) =>
      jsonSchemaTransform({
        ...input,
        schema: documentedSchema(input.route.method, input.url, input.schema),
      }),
    transformObject: (document) => sharedComponents(bareExampleBodies(jsonSchemaTransformObject(document))),
  });
  await docs.register(swaggerUi, { routePrefix: '/docs', staticCSP: DOCS_CONTENT_SECURITY_POLICY });
  for (const route of routes) {
    const documented = documentedRoute(route);
    if (documented) docs.route(documented);
  }
  await docs.ready();
  return docs;
}

/**
 * The OpenAPI document (/openapi.json) and Swagger UI (/docs, with /docs/json and /docs/yaml), built
 * the first time one of them is asked for rather than at every start: @fastify/swagger with yaml and
 * Swagger UI cost a good part of a cold start, and most starts never serve them. The main app answers
 * these paths itself, by asking the docs app, so its hooks (host check, request log, Request-Id) and
 * its error shape apply to them as to any route. `routes`: every route the server answers, complete
 * once the main app is ready and the lazily built ones are (server/http/lazy-app.ts).
 */
export function registerDocs(app: FastifyInstance, routes: () => Promise<readonly RouteOptions[]>): void {
  let built: Promise<FastifyInstance> | undefined;
  const docsApp = () => {
    built ??= buildDocsApp(routes).catch((error: unknown) => {
      built = undefined;
      throw error;
    });
    return built;
  };
  const fromDocs = async (request: FastifyRequest, reply: FastifyReply) => {
    const docs = await docsApp();
    const headers = { ...request.headers };
    for (const name of NOT_COPIED) delete headers[name];
    // A HEAD is the GET without its body, which the main app leaves out as for any route.
    const answer = await docs.inject({ method: 'GET', url: request.url, headers });
    // Swagger UI's own headers (its Content-Security-Policy) go with whatever answers the request.
    for (const [name, value] of Object.entries(answer.headers))
      if (value !== undefined && !NOT_COPIED.has(name)) reply.header(name, value);
    const unanswered = (answer.raw.req as Injected)[handedBack];
    if (unanswered === 'not found') return reply.callNotFound();
    if (unanswered) throw unanswered.error;
    reply.code(answer.statusCode);
    return reply.send(answer.rawPayload.length > 0 ? answer.rawPayload : undefined);
  };
  app.get('/openapi.json', { schema: { hide: true } }, async () => (await docsApp()).swagger());
  app.get('/docs', { schema: { hide: true } }, fromDocs);
  app.get('/docs/*', { schema: { hide: true } }, fromDocs);
  app.addHook('onClose', async () => {
    const docs = await built?.catch(() => undefined);
    await docs?.close();
  });
}
