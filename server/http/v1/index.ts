import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context';
import { registerIdempotency } from '../idempotency';
import { propertyRoutes } from '../property-routes';
import { reminderSettingsRoutes } from '../reminder-routes';
import { salesTaxRoutes } from '../sales-tax-routes';
import { v1BookingRoutes } from './bookings';
import { v1ClientRoutes } from './clients';
import { v1EventRoutes } from './events';
import { v1Guard } from './guard';
import { v1InvoiceRoutes } from './invoices';
import { v1JobRoutes } from './jobs';
import { persistentV1Limiter } from './limiter-store';
import { v1Tag } from './params';
import { v1QuoteRoutes } from './quotes';
import { v1ReviewRoutes } from './reviews';
import { v1ServicePlanRoutes } from './service-plans';
import { v1WebhookRoutes } from './webhooks';

/**
 * The v1 API under /api/v1: one guard (key, plan, limits, scope), idempotent POSTs, then one route
 * module per resource. Every resource registers here, one line each, webhooks included.
 */
export async function v1Api(app: FastifyInstance, ctx: AppContext) {
  const limiter = await persistentV1Limiter(app, ctx);
  app.addHook('onRequest', v1Guard(ctx, limiter));
  registerIdempotency(app, ctx, (request) => `v1:${request.auth.account.id}`);

  await app.register(v1ClientRoutes(ctx));
  await app.register(propertyRoutes(ctx, { tags: v1Tag('properties') }));
  await app.register(v1JobRoutes(ctx));
  await app.register(v1ServicePlanRoutes(ctx));
  await app.register(v1QuoteRoutes(ctx));
  await app.register(v1InvoiceRoutes(ctx));
  await app.register(v1BookingRoutes(ctx));
  await app.register(v1ReviewRoutes(ctx));
  await app.register(v1WebhookRoutes(ctx));
  await app.register(v1EventRoutes(ctx));
  await app.register(salesTaxRoutes(ctx, { tags: v1Tag('reports') }));
  await app.register(reminderSettingsRoutes(ctx, { tags: v1Tag('reminders') }));
}
