import { EventEmitter } from 'node:events';
import type { SyncWebhookSecrets } from '../shared/schemas/sync';
import type { Db, Tx } from './db/database';
import type { ReadSnapshot } from './db/read-worker';
import type { LeasedBlock } from './domain/number-blocks';
import type { Clock } from './lib/clock';
import type { HostLookup } from './lib/webhook-target';

/** Whether outbound work (webhooks, e-mail, sync) may use the network. The desktop shell keeps it current. */
export interface Connectivity {
  online: boolean;
}

/** What the domain asks of sync (server/sync/device/engine.ts implements it): the domain never sees the engine. */
export interface SyncPort {
  numbers: {
    /** A series fell below the low-water mark: top its blocks up soon, off the writer's path. */
    runningLow(accountId: string): void;
    /** A series ran dry: ask the hub briefly for blocks; null when it may not be asked now. */
    leaseNow(accountId: string, series: string): Promise<LeasedBlock[] | null>;
  };
  /** Gives the business's hub an endpoint's signing secrets, so the hub delivers it. */
  handOverWebhook(accountId: string, endpointId: string, secrets: SyncWebhookSecrets): Promise<void>;
}

/**
 * Makes the personal links customers' e-mails carry (the client hub). Called inside the
 * transaction that queues the e-mail, so a link and its message commit together.
 */
export interface ClientLinkMaker {
  /**
   * The link a completed visit's review request e-mail carries; null where the business set no
   * client hub address (the request is then recorded as not sent).
   */
  reviewLink(
    tx: Tx,
    request: { accountId: string; customerId: string; reviewRequestId: string },
  ): Promise<string | null>;
}

/**
 * What domain functions and workers need from the running server. Built once by startServer
 * (or by the CLI) and passed down; nothing reads process-wide state.
 */
export interface AppContext<Sync extends SyncPort = SyncPort> {
  db: Db;
  clock: Clock;
  connectivity: Connectivity;
  /**
   * 'outbox' after a transaction that queued events or mail commits, so workers wake at once;
   * 'online' / 'offline' when connectivity changes.
   */
  signals: EventEmitter;
  /** Sync between devices; absent where no server runs it (the CLI builds its own). */
  sync?: Sync;
  /** The port the HTTP server listens on, once it does: outbound requests must not loop back to it. */
  listening: { port: number | null };
  /**
   * How webhook targets' names resolve, at registration and at delivery; absent, the system's
   * resolver. Tests stand in for public DNS here, which they cannot reach. Given at start
   * (ServerOptions.hostLookup): the delivery thread learns then whether to ask for it.
   */
  hostLookup?: HostLookup;
  /**
   * Long reports read here: one read transaction off the server's connection and thread, so they
   * neither wait for nor hold up its writes. Absent (the CLI, domain tests), they read on `db`.
   */
  readSnapshot?: ReadSnapshot;
  /** The client hub's link maker; absent where no client hub is served (review requests then wait unsent). */
  clientLinks?: ClientLinkMaker;
}

export function createContext<Sync extends SyncPort = SyncPort>(db: Db, clock: Clock): AppContext<Sync> {
  return {
    db,
    clock,
    connectivity: { online: true },
    signals: new EventEmitter(),
    listening: { port: null },
  };
}

export function setOnline(ctx: AppContext, online: boolean): void {
  if (ctx.connectivity.online === online) return;
  ctx.connectivity.online = online;
  ctx.signals.emit(online ? 'online' : 'offline');
}
