import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ApiKey, ApiKeyCreate, ApiKeyWithSecret } from '../../../shared/schemas/api-key';
import type { AppContext } from '../../context';
import * as keys from '../../domain/api-keys';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['settings'];
const KeyParams = PortalParams.extend({ key_id: z.string() });

const Integrations = z
  .object({
    portal_key: ApiKey.nullable(),
    feed_token: ApiKey.nullable(),
    v1_keys: z.array(ApiKey),
  })
  .meta({ id: 'Integrations' });

/** The new secret is in this response only: an idempotent replay never carries it. */
const keySecret = { secretField: 'key' };

export function portalIntegrationRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/integrations',
      {
        schema: {
          tags,
          summary: 'Keys and feed token (Settings > Integrations)',
          params: PortalParams,
          response: { 200: Integrations, ...commonErrors },
        },
      },
      async (request) => {
        const accountId = request.auth.account.id;
        const [portal, feed, v1] = await Promise.all([
          keys.listKeys(ctx, accountId, 'portal'),
          keys.listKeys(ctx, accountId, 'feed'),
          keys.listKeys(ctx, accountId, 'v1'),
        ]);
        return {
          portal_key: portal.find((k) => !k.revoked_at) ?? null,
          feed_token: feed.find((k) => !k.revoked_at) ?? null,
          v1_keys: v1,
        };
      },
    );

    for (const kind of ['portal', 'feed'] as const) {
      app.post(
        kind === 'portal' ? '/integrations/portal-key' : '/integrations/feed-token',
        {
          config: keySecret,
          schema: {
            tags,
            summary:
              kind === 'portal' ? 'Regenerate the portal key' : 'Create or replace the calendar feed token',
            description: 'The previous one stops working at once. The secret is shown only in this response.',
            params: PortalParams,
            response: { 201: ApiKeyWithSecret, ...commonErrors },
          },
        },
        async (request, reply) => {
          return reply.status(201).send(await keys.createKey(ctx, request.auth.account.id, { kind }));
        },
      );
    }

    app.post(
      '/keys',
      {
        config: keySecret,
        schema: {
          tags,
          summary: 'Create a v1 API key',
          description: 'The secret is shown only in this response.',
          params: PortalParams,
          body: ApiKeyCreate,
          response: { 201: ApiKeyWithSecret, ...commonErrors },
        },
      },
      async (request, reply) => {
        const key = await keys.createKey(ctx, request.auth.account.id, { kind: 'v1', ...request.body });
        return reply.status(201).send(key);
      },
    );

    app.post(
      '/keys/:key_id/rotate',
      {
        config: keySecret,
        schema: {
          tags,
          summary: 'Rotate a key',
          description: 'Issues a new secret; the old one keeps working for 7 days.',
          params: KeyParams,
          response: { 200: ApiKeyWithSecret, ...commonErrors },
        },
      },
      async (request) => {
        return keys.rotateKey(ctx, request.auth.account.id, request.params.key_id);
      },
    );

    app.delete(
      '/keys/:key_id',
      {
        schema: {
          tags,
          summary: 'Revoke a key',
          params: KeyParams,
          response: { 200: ApiKey, ...commonErrors },
        },
      },
      async (request) => {
        return keys.revokeKey(ctx, request.auth.account.id, request.params.key_id);
      },
    );
  };
}
