import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  SYNC_SCHEMA_HEADER,
  SyncJoinRequest,
  SyncJoinResponse,
  SyncLeaseRequest,
  SyncLeaseResponse,
  SyncPullQuery,
  SyncPullResponse,
  SyncPushRequest,
  SyncPushResponse,
  SyncSnapshotQuery,
  SyncSnapshotResponse,
  SyncWebhookSecrets,
} from '../../../shared/schemas/sync';
import { SCHEMA_VERSION } from '../../db/database';
import { commonErrors } from '../../http/schemas';
import { type Clock, isoNow } from '../../lib/clock';
import { ApiError, notFound } from '../../lib/errors';
import type { EngineContext } from '../device/engine';
import { PairingAttempts } from './pairing-attempts';
import type { Hub } from './service';
import { snapshotPageText } from './snapshot';
import { handOverWebhook } from './webhook-handover';

const tags = ['sync'];
const security = [{ syncDevice: [] }];
const SyncHeaders = z.object({
  [SYNC_SCHEMA_HEADER]: z.coerce
    .number()
    .int()
    .optional()
    .meta({ description: "The device's schema version; a hub refuses one newer than its own (426)." }),
});

function fromThisMachine(address: string | undefined): boolean {
  return address !== undefined && /^(127\.|::1$|::ffff:127\.)/.test(address);
}

/** The sync API of an install, served by its own hub (the engine's). */
export function syncApiRoutes(ctx: EngineContext): FastifyPluginAsyncZod {
  return hubApiRoutes(ctx.clock, () => {
    if (!ctx.sync) throw notFound('This server does not run sync.');
    return ctx.sync.hub;
  });
}

/**
 * The sync API under /api/sync/v1: what devices call on their hub (docs/sync.md, "Protocol").
 * The hub is looked up per request, so an install serves it only while it runs sync.
 */
export function hubApiRoutes(
  clock: Clock,
  hub: () => Hub,
  options: { behindTlsProxy?: boolean } = {},
): FastifyPluginAsyncZod {
  return async (app) => {
    app.addHook('onRequest', async (request) => {
      // Device credentials and the whole business cross the network: beyond this machine, only over
      // TLS. A hosted hub is deployed behind a load balancer that terminates it.
      const encrypted = 'encrypted' in request.socket && request.socket.encrypted === true;
      if (!encrypted && !options.behindTlsProxy && !fromThisMachine(request.socket.remoteAddress)) {
        throw new ApiError(
          403,
          'https_required',
          'A hub answers other computers only over HTTPS: start it with TLS (serve --tls) and pair again.',
        );
      }
      const version = Number(request.headers[SYNC_SCHEMA_HEADER] ?? 0);
      if (version > SCHEMA_VERSION) {
        throw new ApiError(
          426,
          'upgrade_required',
          `This device runs a newer Shopdesk (schema ${version}) than the hub (schema ${SCHEMA_VERSION}): update the hub first.`,
        );
      }
    });
    const device = (authorization: string | undefined) => hub().authenticate(authorization);
    const pairingAttempts = new PairingAttempts(clock);

    app.post(
      '/join',
      {
        schema: {
          tags,
          summary: 'Join a business with a pairing code',
          description:
            'Redeems a one-time pairing code (valid 15 minutes) for a device credential. After 10 wrong codes from one address in 15 minutes, or 100 from all, every join is 429 with Retry-After until the window ends.',
          security: [],
          headers: SyncHeaders,
          body: SyncJoinRequest,
          response: { 200: SyncJoinResponse, ...commonErrors },
        },
      },
      async (request) => {
        const { code, name, known_accounts } = request.body;
        pairingAttempts.check(request.ip);
        const { device: joined, credential } = await hub()
          .join(code, name, known_accounts)
          .catch((error: unknown) => {
            if (error instanceof ApiError && error.code === 'pairing_code_invalid') {
              pairingAttempts.failed(request.ip);
              request.log.warn({ source: request.ip }, 'wrong pairing code');
            }
            throw error;
          });
        return {
          client_id: joined.account_id,
          device_id: joined.id,
          device_code: joined.code,
          credential,
          hub_time: isoNow(clock),
        };
      },
    );

    app.post(
      '/push',
      {
        schema: {
          tags,
          security,
          summary: 'Push local changes',
          description:
            'Up to 1,000 changes in the order the device made them. Idempotent: changes at or below the acknowledged local_seq are skipped. The hub merges them in one transaction and orders them.',
          headers: SyncHeaders,
          body: SyncPushRequest,
          response: { 200: SyncPushResponse, ...commonErrors },
        },
      },
      async (request) => {
        const from = await device(request.headers.authorization);
        try {
          return { ...(await hub().push(from, request.body.changes)), hub_time: isoNow(clock) };
        } catch (error) {
          // A device writing past what it may is an attacker or a broken install: the operator hears of it.
          if (error instanceof ApiError && error.status === 403) {
            request.log.warn(
              {
                device_id: from.id,
                account_id: from.account_id,
                code: error.code,
                refused: error.options.details,
              },
              'push refused',
            );
          }
          throw error;
        }
      },
    );

    app.get(
      '/pull',
      {
        schema: {
          tags,
          security,
          summary: 'Pull rows changed after a cursor',
          description:
            'Rows in hub order, with their merged values and clocks. Page with the returned cursor while has_more; `wait` holds the request open until something changes.',
          headers: SyncHeaders,
          querystring: SyncPullQuery,
          response: { 200: SyncPullResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const from = await device(request.headers.authorization);
        const { cursor, limit, wait } = request.query;
        const page = await hub().pullStored(from.account_id, cursor, limit, wait * 1000);
        // The stored JSON goes out as it is (a string skips the serializer), as on /snapshot: a
        // hub serving many devices otherwise spends its time parsing and re-serialising rows.
        const rows = page.rows.map(
          (r) =>
            `{"seq":${r.seq},"table":${JSON.stringify(r.table)},"pk":${JSON.stringify(r.pk)},"state":{"v":${r.vals},"c":${r.clocks}${r.actors ? `,"a":${r.actors}` : ''}}}`,
        );
        const text = `{"rows":[${rows.join(',')}],"cursor":${page.cursor},"has_more":${page.has_more},"hub_time":${JSON.stringify(isoNow(clock))}}`;
        return reply.type('application/json').send(text as never);
      },
    );

    app.get(
      '/snapshot',
      {
        schema: {
          tags,
          security,
          summary: "Read the business at one point, for a device's first sync",
          description:
            'Every row whose latest change is at or before `up_to`, a table at a time in key order, in pages. Read `_alias` and then each table to its end, then pull from `up_to`.',
          headers: SyncHeaders,
          querystring: SyncSnapshotQuery,
          response: { 200: SyncSnapshotResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const from = await device(request.headers.authorization);
        const { table, after, up_to, limit } = request.query;
        // Already JSON (a string skips the serializer): the stored rows go out as they are,
        // without a parse and a serialisation; the schema above documents the shape.
        const text = await snapshotPageText(hub().storage, from.account_id, {
          table,
          after,
          upTo: up_to,
          limit,
        });
        return reply.type('application/json').send(text as never);
      },
    );

    app.post(
      '/leases',
      {
        schema: {
          tags,
          security,
          summary: 'Lease blocks of document numbers',
          headers: SyncHeaders,
          body: SyncLeaseRequest,
          response: { 200: SyncLeaseResponse, ...commonErrors },
        },
      },
      async (request) => {
        const from = await device(request.headers.authorization);
        return hub().lease(from, request.body.series, request.body.size);
      },
    );

    app.put(
      '/webhook-endpoints/:endpoint_id/secrets',
      {
        schema: {
          tags,
          security,
          summary: 'Hand a webhook endpoint to the hub',
          description:
            "Sends the signing secrets of one of the business's endpoints whose delivering node is the hub; a hosted hub then delivers its events. Sent again after a rotation.",
          headers: SyncHeaders,
          params: z.object({ endpoint_id: z.string().regex(/^whk_\w+$/) }),
          body: SyncWebhookSecrets,
          response: { 204: z.null(), ...commonErrors },
        },
      },
      async (request, reply) => {
        const from = await device(request.headers.authorization);
        await handOverWebhook(hub().storage, from, request.params.endpoint_id, request.body, isoNow(clock));
        return reply.status(204).send(null);
      },
    );
  };
}
