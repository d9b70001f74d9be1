import type { SyncWebhookSecrets } from '../../../shared/schemas/sync';
import { ApiError } from '../../lib/errors';
import type { HubDevice, HubStorage } from './storage';

/**
 * An install hands an endpoint of its business to the hub: the signing secrets travel only here,
 * only for that endpoint, over the sync API (HTTPS beyond this machine) with the device's
 * credential, and are kept by the hub's storage, never in the synced rows.
 */
export async function handOverWebhook(
  storage: HubStorage,
  device: HubDevice,
  endpointId: string,
  secrets: SyncWebhookSecrets,
  now: string,
): Promise<void> {
  if (!storage.deliveries) {
    throw new ApiError(
      409,
      'hub_delivers_no_webhooks',
      "This business's hub is an install of its own, which delivers the webhooks created on it: create the endpoint there, or move the business to a hosted hub.",
    );
  }
  await storage.deliveries.handOver(device.account_id, endpointId, secrets, now);
}
