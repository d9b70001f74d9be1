import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerIdempotency } from '../idempotency';
import { portalConfigRoutes } from './config';
import { portalCustomerRoutes } from './customers';
import { registerPortalGuard } from './guard';
import { portalIntegrationRoutes } from './integrations';

/** The portal API under /api/portal/{client_id}: one guard, then one route module per resource. */
export async function portalApi(app: FastifyInstance, ctx: AppContext) {
  registerPortalGuard(app, ctx);
  registerIdempotency(app, ctx, (request) => `portal:${request.auth.account.id}`);
  await app.register(portalCustomerRoutes(ctx));
  await app.register(portalConfigRoutes(ctx));
  await app.register(portalIntegrationRoutes(ctx));
}
