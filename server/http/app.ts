import cookie from '@fastify/cookie';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import Fastify, { type FastifyInstance } from 'fastify';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import type { AppContext } from '../context';
import { newId } from '../lib/ids';
import { isWrite } from './auth';
import { registerJsonBodies } from './bodies';
import { registerErrorHandling } from './errors';
import { portalApi } from './portal';
import { sessionRoutes } from './session';
import { systemRoutes } from './system';
import { uiRoutes } from './ui';
import { v1Api } from './v1';

export interface AppOptions {
  logger?: boolean;
}

export const BODY_LIMIT_BYTES = 1024 * 1024;

export async function buildApp(ctx: AppContext, options: AppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newId('req'),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true },
  });
  // Response schemas document the API; they are not re-checked on the way out. The presenters
  // build every response field by field from typed rows (the schemas' z.infer types), so a
  // second validation would only cost time on every request.
  app.setSerializerCompiler(() => (data) => JSON.stringify(data));
  app.addHook('onSend', async (request, reply, payload) => {
    reply.header('Request-Id', request.id);
    return payload;
  });
  // A successful write has committed its transaction by the time the response goes out: wake the
  // outbox workers now, so the events and mail it queued leave at once instead of at the next poll.
  app.addHook('onResponse', async (request, reply) => {
    if (isWrite(request.method) && reply.statusCode < 400) ctx.signals.emit('outbox');
  });
  registerErrorHandling(app);
  registerJsonBodies(app);
  await app.register(cookie);
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
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
        },
      },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });
  app.get('/openapi.json', { schema: { hide: true } }, () => app.swagger());
  app.get('/health', { schema: { hide: true } }, () => ({ status: 'ok' }));
  await app.register(sessionRoutes(ctx));
  await app.register(systemRoutes(ctx));
  await app.register((portal) => portalApi(portal, ctx), { prefix: '/api/portal/:client_id' });
  await app.register((v1) => v1Api(v1, ctx), { prefix: '/api/v1' });
  await app.register(uiRoutes());
  return app;
}
