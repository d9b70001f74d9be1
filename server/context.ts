import { EventEmitter } from 'node:events';
import type { Db } from './db/database';
import type { Clock } from './lib/clock';

/**
 * What domain functions and workers need from the running server. Built once by startServer
 * (or by the CLI) and passed down; nothing reads process-wide state.
 */
export interface AppContext {
  db: Db;
  clock: Clock;
  /** Emits 'outbox' after a transaction that queued events or mail commits, so workers wake at once. */
  signals: EventEmitter;
}

export function createContext(db: Db, clock: Clock): AppContext {
  return { db, clock, signals: new EventEmitter() };
}
