import { EventEmitter } from 'node:events';
import type { Db } from './db/database';
import type { ReadSnapshot } from './db/read-worker';
import type { Clock } from './lib/clock';
import type { HostLookup } from './outbound/webhook-target';
import type { SyncEngine } from './sync/device/engine';

/** Whether outbound work (webhooks, e-mail, sync) may use the network. The desktop shell keeps it current. */
export interface Connectivity {
  online: boolean;
}

/**
 * What domain functions and workers need from the running server. Built once by startServer
 * (or by the CLI) and passed down; nothing reads process-wide state.
 */
export interface AppContext {
  db: Db;
  clock: Clock;
  connectivity: Connectivity;
  /**
   * 'outbox' after a transaction that queued events or mail commits, so workers wake at once;
   * 'online' / 'offline' when connectivity changes.
   */
  signals: EventEmitter;
  /** Sync between devices; absent where no server runs it (the CLI builds its own). */
  sync?: SyncEngine;
  /** The port the HTTP server listens on, once it does: outbound requests must not loop back to it. */
  listening: { port: number | null };
  /**
   * How webhook targets' names resolve, at registration and at delivery; absent, the system's
   * resolver. Tests stand in for public DNS here, which they cannot reach.
   */
  hostLookup?: HostLookup;
  /**
   * Long reports read here: one read transaction off the server's connection and thread, so they
   * neither wait for nor hold up its writes. Absent (the CLI, domain tests), they read on `db`.
   */
  readSnapshot?: ReadSnapshot;
}

export function createContext(db: Db, clock: Clock): AppContext {
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
