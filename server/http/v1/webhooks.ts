import { z } from 'zod';
import type { AppContext } from '../../context';
import { DeliveryId, EndpointId, webhookRoutes } from '../webhook-routes';
import { v1Tag } from './params';

/** The seventh v1 resource: endpoints for the v1 events (spec 6.2). */
export const v1WebhookRoutes = (ctx: AppContext) =>
  webhookRoutes(
    ctx,
    'v1',
    {
      base: z.object({}),
      endpoint: z.object({ id: EndpointId }),
      delivery: z.object({ id: EndpointId, delivery_id: DeliveryId }),
    },
    v1Tag('webhooks'),
  );
