import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { OkBody } from '../../../shared/schemas/common';
import {
  SyncConflict,
  SyncJoined,
  SyncJoinHubRequest,
  SyncPairing,
  SyncPairRequest,
  SyncStatus,
} from '../../../shared/schemas/sync';
import { createSignInToken } from '../../domain/sessions';
import { notFound, validationError } from '../../lib/errors';
import type { EngineContext, SyncEngine } from '../../sync/device/engine';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['sync'];

/** Settings > Sync: this business's role, devices, pairing, conflicts. */
export function portalSyncRoutes(ctx: EngineContext): FastifyPluginAsyncZod {
  const engine = (): SyncEngine => {
    if (!ctx.sync) throw notFound('This server does not run sync.');
    return ctx.sync;
  };
  return async (app) => {
    app.get(
      '/sync',
      {
        schema: {
          tags,
          summary: 'Sync status',
          description:
            'Role (hub, device or standalone), hub, last sync, changes waiting, open conflicts; on the hub, the devices.',
          params: PortalParams,
          response: { 200: SyncStatus, ...commonErrors },
        },
      },
      (request) => engine().status(request.auth.account.id),
    );

    app.post(
      '/sync/now',
      {
        schema: {
          tags,
          summary: 'Sync now',
          description:
            'Pushes what waits and pulls until caught up, then answers with the status. 502 when the hub cannot be reached.',
          params: PortalParams,
          response: { 200: SyncStatus, ...commonErrors },
        },
      },
      async (request) => {
        const accountId = request.auth.account.id;
        await engine().syncNow(accountId);
        return engine().status(accountId);
      },
    );

    app.post(
      '/sync/pair',
      {
        schema: {
          tags,
          summary: 'Create a pairing code',
          description:
            'A one-time code, valid 15 minutes, that a new device enters to join this business. The first code makes this install the hub.',
          params: PortalParams,
          body: SyncPairRequest.optional(),
          response: { 200: SyncPairing, ...commonErrors },
        },
      },
      (request) => engine().pair(request.auth.account.id, { name: request.body?.name }),
    );

    app.post(
      '/sync/join',
      {
        schema: {
          tags,
          summary: 'Join another business hub',
          description:
            "Joins the business of a hub with its pairing code (or pairing link): this install downloads it and syncs from then on. The business already open here stays as it is; the answer's sign_in_url opens the joined one.",
          params: PortalParams,
          body: SyncJoinHubRequest,
          response: { 200: SyncJoined, ...commonErrors },
        },
      },
      async (request) => {
        const link = new URL(request.body.hub_url);
        const code = request.body.code ?? link.searchParams.get('code');
        if (!code) throw validationError('Enter the pairing code shown on the hub.', 'code');
        const fingerprint = request.body.fingerprint ?? link.searchParams.get('fingerprint');
        const joined = await engine().join({ url: link.origin, fingerprint }, code, request.body.name);
        const token = await createSignInToken(ctx, joined.client_id);
        return { ...joined, sign_in_url: `/sign-in?token=${token}` };
      },
    );

    app.delete(
      '/sync/devices/:device_id',
      {
        schema: {
          tags,
          summary: 'Remove a device',
          description: 'Its credential stops working at once; its data stays on it, but it no longer syncs.',
          params: PortalParams.extend({ device_id: z.string() }),
          response: { 200: OkBody, ...commonErrors },
        },
      },
      async (request) => {
        await engine().revokeDevice(request.auth.account.id, request.params.device_id);
        return { ok: true as const };
      },
    );

    app.get(
      '/sync/conflicts',
      {
        schema: {
          tags,
          summary: 'Conflicts waiting for the owner',
          params: PortalParams,
          response: { 200: z.object({ data: z.array(SyncConflict) }), ...commonErrors },
        },
      },
      async (request) => ({ data: await engine().conflicts(request.auth.account.id) }),
    );

    app.post(
      '/sync/conflicts/:conflict_id/resolve',
      {
        schema: {
          tags,
          summary: 'Mark a conflict as dealt with',
          params: PortalParams.extend({ conflict_id: z.string() }),
          response: { 200: OkBody, ...commonErrors },
        },
      },
      async (request) => {
        await engine().resolveConflict(request.auth.account.id, request.params.conflict_id);
        return { ok: true as const };
      },
    );
  };
}
