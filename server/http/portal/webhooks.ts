import type { AppContext } from '../../context';
import { PortalParams } from '../schemas';
import { DeliveryId, EndpointId, webhookRoutes } from '../webhook-routes';

/** Settings > Webhooks: endpoints for the portal's events (spec 6.1). */
export const portalWebhookRoutes = (ctx: AppContext) =>
  webhookRoutes(
    ctx,
    'portal',
    {
      base: PortalParams,
      endpoint: PortalParams.extend({ id: EndpointId }),
      delivery: PortalParams.extend({ id: EndpointId, delivery_id: DeliveryId }),
    },
    ['webhooks'],
  );
