import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance } from 'fastify';
import type { ClientConfig, Pool } from 'pg';
import { crewRoutes } from '../../client-hub/crew-routes';
import { clientHubData } from '../../client-hub/data';
import { hubRows } from '../../client-hub/hub-rows';
import { memberDoorRoutes } from '../../client-hub/join-routes';
import { hubDoor } from '../../client-hub/member-doors';
import { clientHubRoutes } from '../../client-hub/routes';
import { BODY_LIMIT_BYTES } from '../../http/app';
import { registerJsonBodies, ZOD_SCHEMAS } from '../../http/bodies';
import { registerClosingConnections } from '../../http/closing-connections';
import { registerErrorHandling } from '../../http/errors';
import { type Clock, systemClock } from '../../lib/clock';
import { ApiError } from '../../lib/errors';
import { newId } from '../../lib/ids';
import { onboardingRoutes } from './onboarding-routes';
import { pgHubDeliveries } from './pg-deliveries';
import { migratePgHub } from './pg-schema';
import { pgHubSecret } from './pg-secrets';
import { pgHubStorage } from './pg-storage';
import { hubApiRoutes } from './routes';
import { Hub } from './service';
import { type HubWebhookWorkerOptions, startHubWebhookWorker } from './webhook-delivery-worker';

const CLOSE_GRACE_MS = 5000;

export interface HostedHubOptions {
  pool: Pool;
  /** Where pushes are heard from, when the pool goes through a pooler that keeps no sessions. */
  listen?: ClientConfig;
  host?: string;
  port?: number;
  clock?: Clock;
  logger?: boolean;
  /** The operator's token for bringing businesses onto the hub over HTTP (onboarding-routes.ts). */
  adminToken?: string;
  /** How the process delivers the webhooks handed to the hub (tests poll faster). */
  webhooks?: Pick<HubWebhookWorkerOptions, 'pollMs' | 'jitter'>;
}

export interface HostedHub {
  url: string;
  hub: Hub;
  app: FastifyInstance;
  /** Ends long polls, lets in-flight requests finish; the pool stays the caller's. */
  close(): Promise<void>;
}

/**
 * A hosted hub (docs/sync.md, "Hosted hub"): the sync API, a health route and the webhooks handed to
 * the hub, its state all in PostgreSQL, so any number of these processes may serve one database behind a load balancer.
 */
export async function startHostedHub(options: HostedHubOptions): Promise<HostedHub> {
  const clock = options.clock ?? systemClock;
  await migratePgHub(options.pool);
  const hub = new Hub(pgHubStorage(options.pool, options.listen), clock);
  const app = Fastify({
    logger: options.logger ? { level: 'info' } : false,
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => newId('req'),
    requestIdHeader: false,
    schemaController: ZOD_SCHEMAS,
  });
  registerClosingConnections(app, false);
  registerErrorHandling(app);
  registerJsonBodies(app);
  // A load balancer takes a process out of rotation while it cannot reach the database.
  app.get('/health', async () => {
    try {
      await options.pool.query('SELECT 1');
    } catch (error) {
      throw new ApiError(
        503,
        'database_unreachable',
        `The hub cannot reach its database (${(error as Error).message}).`,
      );
    }
    return { status: 'ok' };
  });
  await app.register(
    hubApiRoutes(clock, () => hub, { behindTlsProxy: true }),
    { prefix: '/api/sync/v1' },
  );
  // The client hub (docs/client-hub.md): customers' pages served from the rows the hub holds.
  const rows = hubRows(hub.storage, () => clock.now().getTime());
  await app.register(clientHubRoutes(clientHubData(rows, { optIn: false, now: () => clock.now() }), clock));
  // The crew's phone (docs/crew.md, "The phone"): every business the hub holds.
  await app.register(crewRoutes(rows, clock, { cookieName: () => 'sd_member', serves: async () => true }));
  // A team member's way in (docs/crew.md), while every owner computer may be off.
  const challengeKey = await pgHubSecret(options.pool, 'passkey_challenges');
  await app.register(
    memberDoorRoutes(
      hubDoor(
        rows,
        () => clock.now(),
        async () => challengeKey,
      ),
      clock,
    ),
  );
  if (options.adminToken)
    await app.register(onboardingRoutes(clock, hub, options.adminToken), { prefix: '/api/sync/v1' });
  try {
    await app.listen({ host: options.host ?? '127.0.0.1', port: options.port ?? 4400 });
  } catch (error) {
    hub.shutdown();
    await app.close();
    throw error;
  }
  const { port, address, family } = app.server.address() as AddressInfo;
  const url = `http://${family === 'IPv6' ? `[${address}]` : address}:${port}`;
  const webhooks = startHubWebhookWorker(pgHubDeliveries(options.pool), {
    ...options.webhooks,
    clock,
    ownPort: port,
    onError: (error) => app.log.warn({ err: error }, 'webhook deliveries'),
  });
  return {
    url,
    hub,
    app,
    close: async () => {
      hub.shutdown();
      await webhooks.stop();
      // Requests still in flight (a slow push) get a few seconds before their connections are cut.
      const cutOff = setTimeout(() => app.server.closeAllConnections(), CLOSE_GRACE_MS);
      try {
        await app.close();
      } finally {
        clearTimeout(cutOff);
      }
    },
  };
}
