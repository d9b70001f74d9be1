import type { FastifyInstance } from 'fastify';
import type { EngineContext } from '../../sync/device/engine';
import { registerIdempotency } from '../idempotency';
import { propertyRoutes } from '../property-routes';
import { reminderSettingsRoutes } from '../reminder-routes';
import { salesTaxRoutes } from '../sales-tax-routes';
import { PortalParams } from '../schemas';
import { portalAccountingExportRoutes } from './accounting-export';
import { type DataSafety, portalBackupRoutes } from './backups';
import { portalBookingRequestRoutes } from './booking-requests';
import { portalBookingRoutes } from './bookings';
import { portalCalendarRoutes } from './calendar';
import { portalClientHubRoutes } from './client-hub';
import { portalConfigRoutes } from './config';
import { type ImportSetup, portalCustomerImportRoutes } from './customer-imports';
import { portalCustomerRoutes } from './customers';
import { portalExportRoutes } from './export';
import { registerPortalGuard } from './guard';
import { portalHistoryRoutes } from './history';
import { portalIntegrationRoutes } from './integrations';
import { portalInvoiceRoutes } from './invoices';
import { portalJobPhotoRoutes } from './job-photos';
import { portalJobRoutes } from './jobs';
import { portalLogoRoutes } from './logo';
import { portalMessageRoutes } from './messages';
import { portalOverviewRoutes } from './overview';
import { portalQuoteRoutes } from './quotes';
import { portalReviewRoutes } from './reviews';
import { portalServicePlanRoutes } from './service-plans';
import { portalSyncRoutes } from './sync';
import { portalTeamRoutes } from './team';
import { portalTeamAccessRoutes } from './team-access';
import { portalTimeEntryRoutes } from './time-entries';
import { portalWebhookRoutes } from './webhooks';

/** The portal API under /api/portal/{client_id}: one guard, then one route module per resource. */
export async function portalApi(
  app: FastifyInstance,
  ctx: EngineContext,
  dataSafety?: DataSafety,
  imports?: ImportSetup,
) {
  registerPortalGuard(app, ctx);
  registerIdempotency(app, ctx, (request) => `portal:${request.auth.account.id}`);
  await app.register(portalCustomerRoutes(ctx));
  await app.register(portalClientHubRoutes(ctx));
  await app.register(propertyRoutes(ctx, { params: PortalParams, tags: ['properties'] }));
  await app.register(portalConfigRoutes(ctx));
  await app.register(portalLogoRoutes(ctx));
  await app.register(portalIntegrationRoutes(ctx));
  await app.register(portalOverviewRoutes(ctx));
  await app.register(portalExportRoutes(ctx));
  await app.register(salesTaxRoutes(ctx, { params: PortalParams, tags: ['overview'] }));
  await app.register(portalAccountingExportRoutes(ctx));
  await app.register(reminderSettingsRoutes(ctx, { params: PortalParams, tags: ['settings'] }));
  await app.register(portalInvoiceRoutes(ctx));
  await app.register(portalQuoteRoutes(ctx));
  await app.register(portalJobRoutes(ctx));
  await app.register(portalJobPhotoRoutes(ctx));
  await app.register(portalServicePlanRoutes(ctx));
  await app.register(portalBookingRoutes(ctx));
  await app.register(portalBookingRequestRoutes(ctx));
  await app.register(portalTeamRoutes(ctx));
  await app.register(portalTeamAccessRoutes(ctx));
  await app.register(portalTimeEntryRoutes(ctx));
  await app.register(portalReviewRoutes(ctx));
  await app.register(portalCalendarRoutes(ctx));
  await app.register(portalWebhookRoutes(ctx));
  await app.register(portalMessageRoutes(ctx));
  await app.register(portalSyncRoutes(ctx));
  await app.register(portalHistoryRoutes(ctx));
  if (dataSafety) await app.register(portalBackupRoutes(ctx, dataSafety));
  if (imports) await app.register(portalCustomerImportRoutes(ctx, imports));
}
