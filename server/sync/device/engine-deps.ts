import type { EventEmitter } from 'node:events';
import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { Connectivity } from '../../context';
import type { Db } from '../../db/database';
import type { Clock } from '../../lib/clock';
import type { Capture } from '../capture';
import type { HubStorage } from '../hub/storage';
import type { HubAddress, HubTransport, joinHub } from './transport';

/** What a device's sync engine is given by the server (or the CLI, or a test's world). */
export interface EngineDeps {
  db: Db;
  sqlite: SQLite.Database;
  capture: Capture;
  clock: Clock;
  connectivity: Connectivity;
  /** 'outbox' after local writes (push soon), 'online' / 'offline' from the desktop shell. */
  signals: EventEmitter;
  log?: { warn(obj: object, msg: string): void };
  /** How this install reaches a remote hub; HTTP unless a test puts faults in between. */
  remote?: RemoteHub;
  /** Where this install keeps the hub's state when it is a hub; its own SQLite unless given. */
  hubStorage?: HubStorage;
  /**
   * Applies the client hub actions pulled so far (domain/client-actions.ts), returning how many it
   * settled; their effects go out in the same round.
   */
  clientActions?: (accountId: string) => Promise<number>;
}

export interface RemoteHub {
  join: typeof joinHub;
  transport(hub: HubAddress, credential: string): HubTransport;
}
