import cookie from '@fastify/cookie';
import Fastify, {
  type FastifyInstance,
  type FastifyReply,
  type FastifyRequest,
  LogController,
  type RouteOptions,
} from 'fastify';
import { crewRoutes } from '../client-hub/crew-routes';
import { clientHubData } from '../client-hub/data';
import { installRows } from '../client-hub/install-rows';
import { memberDoorRoutes } from '../client-hub/join-routes';
import { installDoor } from '../client-hub/member-doors';
import { clientHubRoutes } from '../client-hub/routes';
import type { StorageHealth } from '../db/integrity';
import { newId } from '../lib/ids';
import type { LineSink } from '../lib/rotating-file';
import type { EngineContext } from '../sync/device/engine';
import { syncApiRoutes } from '../sync/hub/routes';
import { isWrite } from './auth';
import { DEFAULT_DRAIN_MS, registerJsonBodies, ZOD_SCHEMAS } from './bodies';
import { registerClosingConnections } from './closing-connections';
import { registerCsrfCheck } from './csrf';
import { registerDocs } from './docs';
import { MAX_PARAM_LENGTH, registerErrorHandling, sendError, toApiError } from './errors';
import { registerHostCheck } from './hosts';
import { answeredElsewhere, forwardPrefix, forwardToLazyApp, lazyApp } from './lazy-app';
import { portalApi } from './portal';
import type { DataSafety } from './portal/backups';
import type { ImportSetup } from './portal/customer-imports';
import { registerRequestActor } from './request-actor';
import { DEFAULT_UPLOAD_MS, registerAnswerTime, registerRequestDeadline } from './request-deadline';
import type { RequestGate } from './request-gate';
import { registerRequestLog } from './request-log';
import { sessionRoutes } from './session';
import { systemRoutes } from './system';
import { uiRoutes } from './ui';
import { v1Api } from './v1';

export interface AppOptions {
  /** Whether the data file is fit to serve (see server/db/integrity.ts). */
  storage: StorageHealth;
  /** Where request and error lines go (pino JSON, one a line); nowhere when absent. */
  log?: LineSink | undefined;
  /** Host names the server answers to (DNS rebinding defence); see allowedHostnames. */
  allowedHosts: ReadonlySet<string>;
  timeouts?: HttpTimeouts | undefined;
  /** Serve HTTPS with this certificate and key (PEM). */
  https?: { cert: string; key: string } | undefined;
  /** Holds requests back while the database is closed for a restore. */
  gate?: RequestGate;
  /** The UI session cookie's name, one per data folder (sessionCookieName). */
  sessionCookie: string;
  /** Backups and restore of the data folder (Settings > Backups); absent where nothing may restore. */
  dataSafety?: DataSafety;
  /** Where uploaded customer files wait and imports write (Settings > Import); no import routes without it. */
  imports?: ImportSetup;
}

export interface HttpTimeouts {
  /** A connection that sends nothing for this long (a stalled body, say) is closed. */
  idleMs?: number;
  /** The whole request, headers and body, must arrive within this. */
  requestMs?: number;
  /** The same for a CSV upload (a customer import's file), which may be 200 MB. */
  uploadMs?: number;
  /** The rest of a body refused before it all arrived (413) is read and dropped for at most this long. */
  drainMs?: number;
}

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Every route as registered (its options, the permission entry included once the portal set it),
     * but those of the apps built on first request that are not built yet.
     */
    routeTable: readonly RouteOptions[];
    /** Every route the server answers, in the order registered: routeTable, once every app is built. */
    allRoutes(): Promise<readonly RouteOptions[]>;
  }
}

export const BODY_LIMIT_BYTES = 1024 * 1024;
export const DEFAULT_TIMEOUTS: Required<HttpTimeouts> = {
  idleMs: 30_000,
  requestMs: 60_000,
  uploadMs: DEFAULT_UPLOAD_MS,
  drainMs: DEFAULT_DRAIN_MS,
};

/**
 * A Fastify instance with what every request passes (hooks, error handler, body parsers, cookies),
 * before any route: the main app and the lazily built v1 app are both made by it.
 */
async function newApp(
  options: AppOptions,
  timeouts: Required<HttpTimeouts>,
  wakeOutbox: () => void,
  setUp: (app: FastifyInstance) => void,
): Promise<FastifyInstance> {
  const app = Fastify({
    ...(options.https ? { https: options.https } : {}),
    logger: options.log ? { level: 'info', stream: options.log } : false,
    // request-log.ts writes one line per request instead of Fastify's two.
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: BODY_LIMIT_BYTES,
    connectionTimeout: timeouts.idleMs,
    // What the Keep-Alive header tells clients: reuse the connection for half the idle timeout.
    // Fastify's 72 s is longer than the idle timeout after which the server closes the connection,
    // so a client sent its next request on a connection being closed, and got ECONNRESET or
    // "other side closed" for it (often while an import held the event loop and the close came late).
    keepAliveTimeout: Math.floor(timeouts.idleMs / 2),
    // Off: registerRequestDeadline keeps the same deadline, longer for a CSV upload.
    requestTimeout: 0,
    genReqId: () => newId('req'),
    requestIdHeader: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: MAX_PARAM_LENGTH },
    // Errors raised before routing (a malformed percent-escape) get the contract's shape too.
    frameworkErrors: (error, request, reply) => sendError(request, reply, toApiError(error)),
    schemaController: ZOD_SCHEMAS,
  }) as unknown as FastifyInstance;
  setUp(app);
  options.gate?.register(app);
  registerHostCheck(app, options.allowedHosts);
  registerRequestLog(app);
  registerRequestActor(app);
  registerRequestDeadline(app, timeouts.requestMs, timeouts.uploadMs);
  registerAnswerTime(app);
  // The hooks every request passes take a callback: an async one costs each request a promise and a turn.
  app.addHook('onSend', (request, reply, payload, done) => {
    reply.header('Request-Id', request.id);
    done(null, payload);
  });
  // A successful write has committed its transaction by the time the response goes out: wake the
  // outbox workers then (see wakeOutbox in buildApp). A 202 has only started its work (a customer
  // import), which signals when it commits; waking the workers now would have them wait for the
  // write lock that work holds.
  app.addHook('onResponse', (request, reply, done) => {
    if (
      isWrite(request.method) &&
      reply.statusCode < 400 &&
      reply.statusCode !== 202 &&
      !answeredElsewhere(request)
    )
      wakeOutbox();
    done();
  });
  registerErrorHandling(app, options.storage);
  registerJsonBodies(app, timeouts.drainMs);
  await app.register(cookie);
  app.decorate('sessionCookie', options.sessionCookie);
  registerCsrfCheck(app);
  return app;
}

export async function buildApp(ctx: EngineContext, options: AppOptions): Promise<FastifyInstance> {
  const timeouts = { ...DEFAULT_TIMEOUTS, ...options.timeouts };
  // Each wake-up costs every outbox worker a read of its outbox outside a transaction, so the writes
  // answered in one turn of the event loop (several under load) wake them once, right after that turn.
  let wakeScheduled = false;
  const wakeOutbox = () => {
    if (wakeScheduled) return;
    wakeScheduled = true;
    setImmediate(() => {
      wakeScheduled = false;
      ctx.signals.emit('outbox');
    });
  };
  // Fastify keeps no list of its routes; this one lets the role test walk every operation and the
  // docs describe them, in the order they were registered: a lazily built app's sit where it is.
  const segments: RouteOptions[][] = [[]];
  const app = await newApp(options, timeouts, wakeOutbox, (main) => {
    forwardToLazyApp(main);
    main.addHook('onRoute', (route) => {
      if (!route.config?.forwardTo) segments.at(-1)!.push(route);
    });
    registerClosingConnections(main, options.https !== undefined);
  });
  app.decorate('routeTable', { getter: () => segments.flat() });
  const lazyApps: Array<() => Promise<FastifyInstance>> = [];
  app.decorate('allRoutes', async () => {
    await Promise.all(lazyApps.map((built) => built()));
    return app.routeTable;
  });
  /**
   * The routes `register` adds under `prefix`, in an app of their own built on their first request
   * (server/http/lazy-app.ts). It never listens: the main app's server hands it its requests.
   */
  const lazily = (prefix: string, register: (api: FastifyInstance) => Promise<void>) => {
    const routes: RouteOptions[] = [];
    segments.push(routes, []);
    const built = lazyApp(app, async () => {
      routes.length = 0;
      const api = await newApp({ ...options, https: undefined }, timeouts, wakeOutbox, (lazy) => {
        // In the main app, a GET no route under the prefix matches (an unknown path, an id over the
        // length limit) falls to the UI's catch-all, which leaves /api/ paths to the not-found
        // handler: the same here.
        const uiCatchAll = { schema: { hide: true }, config: { withoutDatabase: true } };
        const notFound = (_request: FastifyRequest, reply: FastifyReply) => reply.callNotFound();
        lazy.get(prefix, uiCatchAll, notFound);
        lazy.get(`${prefix}/*`, uiCatchAll, notFound);
        lazy.addHook('onRoute', (route) => {
          routes.push(route);
        });
      });
      await api.register(register, { prefix });
      await api.ready();
      return api;
    });
    lazyApps.push(built);
    forwardPrefix(app, prefix, built);
    return built;
  };
  registerDocs(app, () => app.allRoutes());
  app.get('/health', { schema: { hide: true } }, () => ({ status: 'ok' }));
  await app.register(sessionRoutes(ctx));
  await app.register(systemRoutes(ctx));
  // The portal's 161 routes and the v1 API's 80 (330 of the server's 422 with their HEAD twins) were
  // about a fifth of a start's CPU, and a start's first answer needs neither: each is registered in
  // an app of its own, v1's on its first request.
  const portalApp = lazily('/api/portal/:client_id', (portal) =>
    portalApi(portal, ctx, options.dataSafety, options.imports),
  );
  lazily('/api/v1', (v1) => v1Api(v1, ctx));
  await app.register(syncApiRoutes(ctx), { prefix: '/api/sync/v1' });
  // The UI calls the portal API as soon as it has loaded: its app is built once the UI's page has
  // gone out, while the browser fetches the page's scripts, rather than on the UI's first call. A
  // failed build is tried again by the request that needs it, which reports the error. A start that
  // only serves API clients builds it on their first portal call.
  await app.register(uiRoutes({ pageSent: () => void portalApp().catch(() => undefined) }));
  // The client hub, for the businesses whose owner serves it from this install (docs/client-hub.md).
  const hubRows = installRows(ctx, (error) => app.log.error({ err: error }, 'client hub action'));
  const now = () => ctx.clock.now();
  const hubData = clientHubData(hubRows, { optIn: true, now });
  await app.register(clientHubRoutes(hubData, ctx.clock));
  // The crew's phone, for the same businesses (docs/crew.md, "The phone").
  await app.register(
    crewRoutes(hubRows, ctx.clock, {
      cookieName: (server) => server.sessionCookie,
      serves: async (accountId) => (await hubData.business(accountId)) !== undefined,
    }),
  );
  // A team member's way in (docs/crew.md): invitations, passkeys, sign-out, whatever the opt-in.
  await app.register(
    memberDoorRoutes(
      installDoor(ctx, hubRows, () => app.sessionCookie),
      ctx.clock,
    ),
  );
  return app;
}
