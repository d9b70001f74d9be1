import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { SyncJoinResponse, SyncUploadRequest } from '../../../shared/schemas/sync';
import { commonErrors } from '../../http/schemas';
import { type Clock, isoNow } from '../../lib/clock';
import { ApiError, unauthorized } from '../../lib/errors';
import type { Hub } from './service';

/**
 * POST /api/sync/v1/businesses on a hosted hub: an office install brings its business here over
 * the sync API, with the operator's admin token, instead of reaching PostgreSQL itself. The hub
 * makes the business and the install's device and answers its credential; the install then
 * pushes the whole business as its first round (engine.upload). Only a hosted hub started with
 * an admin token serves it.
 */
export function onboardingRoutes(clock: Clock, hub: Hub, adminToken: string): FastifyPluginAsyncZod {
  const expected = digest(adminToken);
  return async (app) => {
    app.post(
      '/businesses',
      {
        schema: {
          tags: ['sync'],
          summary: 'Bring a business onto this hosted hub',
          description:
            "Makes the business and the uploading install's device; answers the device's credential. The install pushes the business next.",
          body: SyncUploadRequest,
          response: { 200: SyncJoinResponse, ...commonErrors },
        },
      },
      async (request) => {
        const given = request.headers.authorization?.match(/^Bearer (\S+)$/)?.[1];
        if (!given || !timingSafeEqual(digest(given), expected)) {
          throw unauthorized("Send the hub's admin token as Authorization: Bearer …");
        }
        const { client_id: accountId, name, number_floors: floors } = request.body;
        if (await hub.storage.hasBusiness(accountId)) {
          throw new ApiError(
            409,
            'already_on_hub',
            `The hub already holds business ${accountId}: join it with a pairing code instead.`,
          );
        }
        await hub.storage.ensureBusiness(accountId, isoNow(clock));
        for (const [series, floor] of Object.entries(floors))
          await hub.storage.seedNumbers(accountId, series, floor);
        // A code made and redeemed at once: the uploading install becomes the business's first device.
        const pairing = await hub.createPairing(accountId, 'http://hub.invalid');
        const { device, credential } = await hub.join(pairing.pairing_code, name ?? 'Office');
        return {
          client_id: accountId,
          device_id: device.id,
          device_code: device.code,
          credential,
          hub_time: isoNow(clock),
        };
      },
    );
  };
}

const digest = (text: string) => createHash('sha256').update(text).digest();
