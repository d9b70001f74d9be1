import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Backup, RestoreResult } from '../shared/schemas/backup';
import { Backups } from './backups/backups';
import { openDatabaseWithBackups } from './backups/open';
import {
  afterRestore,
  completeRestore,
  discardRestore,
  keepAcrossRestore,
  prepareRestore,
} from './backups/restore';
import type { RetentionRule } from './backups/retention';
import { type BackupSchedule, startBackupSchedule } from './backups/schedule';
import { createContext, setOnline } from './context';
import type { DatabaseKey } from './db/cipher';
import { lockDataFolder } from './db/folder-lock';
import { startIntegrityCheck } from './db/integrity';
import { ReadWorker } from './db/read-worker';
import { openWriterConnection } from './db/writer-connection';
import { clientLinkMaker } from './domain/client-links';
import { applyOutsideActions } from './domain/crew-actions';
import { failInterruptedRuns } from './domain/customer-import/imports';
import { buildApp, type HttpTimeouts } from './http/app';
import { allowedHostnames } from './http/hosts';
import { releaseUnfinishedClaims } from './http/idempotency';
import { RequestGate } from './http/request-gate';
import { sessionCookieName } from './http/session';
import { isLoopback, resolveTls, type TlsOption } from './http/tls';
import { allOf, type BackgroundWork, restartable } from './lib/background-work';
import { type Clock, systemClock } from './lib/clock';
import { ApiError } from './lib/errors';
import type { LineSink } from './lib/rotating-file';
import type { HostLookup } from './lib/webhook-target';
import { type RecurringJob, startRecurringJob } from './maintenance/recurring-work';
import { type RetentionJob, startRetentionJob } from './maintenance/retention';
import { type MailWorker, type MailWorkerOptions, startMailWorker } from './outbound/mail-worker';
import { type ReminderScheduler, startReminderScheduler } from './outbound/reminder-scheduler';
import { startWebhookWorker, type WebhookWorker, type WebhookWorkerOptions } from './outbound/webhook-worker';
import { type EngineContext, SyncEngine } from './sync/device/engine';
import type { HubStorage } from './sync/hub/storage';
import { type OpenedDatabase, openDatabase } from './sync/open';

export interface ServerOptions {
  dataDir: string;
  host?: string;
  port?: number;
  clock?: Clock;
  /** The request and error log: true for stdout, or a sink such as a rotating file. */
  logger?: boolean | LineSink;
  /**
   * Other names this server is reached by (a LAN name, a reverse proxy's host). Loopback names and
   * the listen address are always accepted; any other Host header is refused (DNS rebinding).
   */
  allowedHosts?: string[];
  timeouts?: HttpTimeouts;
  /** Tuning of the outbound workers (tests pin the jitter; benchmarks raise the bounds). */
  outbound?: { webhooks?: WebhookWorkerOptions; mail?: MailWorkerOptions };
  /** Encrypts the database, its WAL and its backups at rest; a plain database is encrypted in place. */
  key?: DatabaseKey | null;
  /** Serve HTTPS: the owner's certificate and key (PEM), or 'generate' for a LAN hub's own. */
  tls?: TlsOption;
  /**
   * Plain HTTP on an address other people can reach is refused: it would carry the business's data and
   * keys in clear over the LAN. Set this only behind a proxy that terminates TLS.
   */
  allowInsecureHttp?: boolean;
  /** The daily backup is on unless `schedule` is false (tests that do not exercise it). */
  backups?: { schedule?: boolean; retention?: RetentionRule };
  /** When the full integrity check starts, in ms from the server's start (default: db/integrity.ts). */
  integrityCheckDelayMs?: number;
  /** Where the hub's state lives when this install is a hub (PostgreSQL: sync/hub/pg-storage.ts). */
  hubStorage?: HubStorage;
  /** How webhook targets' names resolve (tests stand in for public DNS); absent, the system's resolver. */
  hostLookup?: HostLookup;
}

export interface RunningServer {
  url: string;
  port: number;
  ctx: EngineContext;
  app: FastifyInstance;
  /** The outbound workers; `runDue()` sends what is due now and resolves once it is recorded. */
  outbound: { webhooks: WebhookWorker; mail: MailWorker };
  /** Prunes what outlived its retention, hourly in the background; `runNow()` runs a pass at once. */
  retention: RetentionJob;
  /** Service plans' automatic work (horizons, period invoices), hourly; `runNow()` runs a pass at once. */
  recurring: RecurringJob;
  /** Queues due reminders every few minutes; `runNow()` runs a pass at once. */
  reminders: ReminderScheduler;
  /** The full integrity check started in the background; resolves to the problems it found. */
  integrityChecked: Promise<string[]>;
  /** Backups of the data folder (Settings > Backups). */
  backups: Backups;
  /** Runs the daily backup if it is due (the schedule, when on, calls it by itself). */
  runDueBackup(): Promise<Backup | null>;
  /** Replaces the data with a backup: copies and verifies it, then pauses requests, closes the database, swaps, reopens. */
  restore(backupId: string): Promise<RestoreResult>;
  /** SHA-256 fingerprint of the TLS certificate (what devices pin at pairing); null over plain HTTP. */
  tlsFingerprint: string | null;
  /** Whether webhooks and e-mail may go out; the desktop shell calls it when the network comes and goes. */
  setOnline(online: boolean): void;
  /** Stops taking connections, lets in-flight requests finish, stops the workers, closes the database. */
  close(): Promise<void>;
}

const stdoutSink: LineSink = { write: (line) => process.stdout.write(line) };

/** The one way to run Shopdesk's server: headless mode, the desktop app and the tests all call this. */
export async function startServer(options: ServerOptions): Promise<RunningServer> {
  const listenHost = options.host ?? '127.0.0.1';
  if (!options.tls && !isLoopback(listenHost) && !options.allowInsecureHttp)
    throw new Error(
      `Refusing plain HTTP on ${listenHost}, which other machines can reach: serve TLS (--tls generate, or --tls-cert and --tls-key), ` +
        'or pass --insecure-http when a proxy in front terminates TLS.',
    );
  const clock = options.clock ?? systemClock;
  const key = options.key ?? null;
  const tls = options.tls ? await resolveTls(options.tls, options.dataDir, clock.now()) : undefined;
  const lock = await lockDataFolder(options.dataDir);
  const backups = new Backups({
    dataDir: options.dataDir,
    key,
    clock,
    retention: options.backups?.retention,
  });
  let database = await openDatabaseWithBackups(backups, {
    holdsFolderLock: true,
    checkedInBackground: true,
  }).catch((error: unknown) => {
    lock.release();
    throw error;
  });
  const ctx = createContext<SyncEngine>(database.db, clock);
  ctx.hostLookup = options.hostLookup;
  // Review requests carry a client hub link wherever the business set its hub's address.
  ctx.clientLinks = clientLinkMaker(clock);
  // Restartable: stopped while a restore swaps the file, it opens the new one at the next read.
  const reader = new ReadWorker(database.file, key);
  ctx.readSnapshot = reader.read;
  await releaseUnfinishedClaims(ctx.db);
  const gate = new RequestGate();
  const startOutbound = () => ({
    webhooks: startWebhookWorker(ctx, { file: database.file, key }, options.outbound?.webhooks),
    mail: startMailWorker(ctx, options.outbound?.mail),
  });
  const startSync = (opened: OpenedDatabase) => {
    const engine = new SyncEngine({
      db: opened.db,
      sqlite: opened.sqlite,
      capture: opened.capture,
      clock,
      connectivity: ctx.connectivity,
      signals: ctx.signals,
      log: app.log,
      hubStorage: options.hubStorage,
      clientActions: (accountId) => applyOutsideActions(ctx, accountId),
    });
    engine.serverUrl = url;
    engine.tlsFingerprint = tls?.fingerprint ?? null;
    ctx.sync = engine;
    engine.start();
    return engine;
  };
  // Everything that works on the database by itself; set once the server listens.
  let background: BackgroundWork | undefined;
  let restoring = false;

  const restore = async (backupId: string, request?: FastifyRequest): Promise<RestoreResult> => {
    if (restoring) throw new ApiError(409, 'restore_in_progress', 'A restore is already running.');
    restoring = true;
    try {
      // The slow part (copying and verifying the backup) runs while the server still serves.
      const prepared = await prepareRestore(backups, backupId);
      const kept = await keepAcrossRestore(ctx.db).catch((error: unknown) => {
        discardRestore(prepared);
        throw error;
      });
      await gate.close(request);
      await background?.pause();
      await backups.idle();
      await reader.stop();
      await database.close();
      try {
        return await completeRestore(backups, prepared);
      } finally {
        database = await openDatabase(options.dataDir, {
          key,
          holdsFolderLock: true,
          checkedInBackground: true,
        });
        ctx.db = database.db;
        await afterRestore(ctx.db, kept);
        background?.resume();
        gate.open();
      }
    } finally {
      restoring = false;
    }
  };

  // A customer import the last process did not live to finish was rolled back with it: say so on its run.
  await failInterruptedRuns(ctx);
  const app = await buildApp(ctx, {
    log: options.logger === true ? stdoutSink : options.logger || undefined,
    storage: database.health,
    allowedHosts: allowedHostnames(listenHost, options.allowedHosts),
    sessionCookie: sessionCookieName(options.dataDir),
    timeouts: options.timeouts,
    https: tls,
    gate,
    dataSafety: { backups, restore },
    imports: {
      folder: path.join(options.dataDir, 'imports'),
      connect: () => openWriterConnection(database.file, key, (sqlite) => database.capture.attach(sqlite)),
    },
  });
  try {
    await app.listen({ host: listenHost, port: options.port ?? 4300 });
  } catch (error) {
    await app.close();
    await database.close();
    lock.release();
    throw error;
  }
  const integrity = startIntegrityCheck(database.file, database.health, key, options.integrityCheckDelayMs);
  void integrity.done.then((found) => {
    if (found.length) console.error(`shopdesk: ${database.health.damage}`);
  });
  const { port, address, family } = app.server.address() as AddressInfo;
  ctx.listening.port = port;
  const shownHost = family === 'IPv6' ? `[${address}]` : address;
  const url = `${tls ? 'https' : 'http'}://${shownHost}:${port}`;
  lock.announce(url);
  // The workers are started anew after a restore; this object stays the one callers hold.
  const outbound = {} as RunningServer['outbound'];
  const outboundWork = restartable(() => {
    Object.assign(outbound, startOutbound());
    return { stop: async () => void (await Promise.all([outbound.webhooks.stop(), outbound.mail.stop()])) };
  });
  const retention = startRetentionJob(ctx);
  const recurring = startRecurringJob(ctx);
  const reminders = startReminderScheduler(ctx);
  const schedule: BackupSchedule | undefined =
    options.backups?.schedule === false
      ? undefined
      : startBackupSchedule(backups, (error) => app.log.error({ err: error }, 'scheduled backup failed'));
  const syncWork = restartable(() => startSync(database));
  background = allOf([
    outboundWork,
    retention,
    recurring,
    reminders,
    ...(schedule ? [schedule] : []),
    syncWork,
  ]);
  let closing: Promise<void> | undefined;
  return {
    url,
    port,
    ctx,
    app,
    outbound,
    retention,
    recurring,
    reminders,
    integrityChecked: integrity.done,
    backups,
    runDueBackup: () =>
      schedule ? schedule.runDue() : backups.isDue() ? backups.create('scheduled') : Promise.resolve(null),
    restore: (backupId) => restore(backupId),
    tlsFingerprint: tls?.fingerprint ?? null,
    setOnline: (online) => setOnline(ctx, online),
    close: () => {
      closing ??= (async () => {
        // Sync first: its connections would hold the HTTP server's close up.
        await syncWork.stop();
        await app.close();
        await Promise.all([background?.stop(), integrity.stop(), backups.idle(), reader.stop()]);
        await database.close();
        lock.release();
      })();
      return closing;
    },
  };
}
