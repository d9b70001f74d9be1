import type { RowState } from '../merge';
import type { HubDeliveryStorage } from './webhook-deliveries';

/**
 * Everything a hub keeps, behind one interface: the embedded hub keeps it in the install's own
 * SQLite (sqlite-storage.ts); a hosted hub may keep it elsewhere. Every method is one transaction
 * of the storage, so any number of hub processes may share one store.
 */
export interface HubDevice {
  id: string;
  account_id: string;
  name: string;
  /** Short code that marks the numbers the device issues on its own (docs/sync.md, "Numbers"). */
  code: string;
  last_local_seq: number;
  created_at: string;
  last_seen_at: string | null;
  revoked_at: string | null;
}

export interface PushedChange {
  /** The device's own sequence number of the change: a repeated push of it is a no-op. */
  local_seq: number;
  table: string;
  pk: string;
  state: RowState;
}

export interface PulledRow {
  seq: number;
  table: string;
  pk: string;
  state: RowState;
}

/**
 * A pulled row as stored: its values and clocks are the JSON text the hub keeps, so the sync API
 * can answer with that text instead of parsing and serialising every row again.
 */
export interface StoredRow {
  seq: number;
  table: string;
  pk: string;
  vals: string;
  clocks: string;
  /** Each column's author (RowState.a); null for a row merged before authors were kept. */
  actors: string | null;
}

export function parseStoredRow(row: StoredRow): PulledRow {
  return { seq: row.seq, table: row.table, pk: row.pk, state: storedState(row) };
}

/** A row state from the JSON texts the hub keeps. */
export function storedState(row: { vals: string; clocks: string; actors: string | null }): RowState {
  const state: RowState = { v: JSON.parse(row.vals), c: JSON.parse(row.clocks) };
  if (row.actors) state.a = JSON.parse(row.actors);
  return state;
}

/** The JSON text the hub keeps of a state's authors. */
export function actorsText(state: RowState): string | null {
  return state.a ? JSON.stringify(state.a) : null;
}

export interface PushResult {
  /** The highest local_seq the hub holds for the device (including earlier pushes). */
  acknowledged: number;
  /** Rows whose state the push changed. */
  accepted: number;
  last_seq: number;
  /**
   * Set when every row the push wrote holds exactly what the device pushed: the business's
   * sequence number before the push, whose rows up to last_seq are this push's own. The embedded
   * hub answers it to its own install, which then need not pull its pushes back.
   */
  as_pushed_after?: number;
}

/**
 * Work on the hub's own install's file that belongs with a push's answer. A storage that runs it
 * does so synchronously, before its commit: if it throws, the push is not taken either.
 */
export type SameCommit = (result: PushResult) => void;

export interface SnapshotQuery {
  table: string;
  /** The last key of the previous page ('' for the first page of a table). */
  after: string;
  /** The sequence number the snapshot stands at; absent on its first page: the hub's latest. */
  upTo?: number;
  limit: number;
}

/** Rows of one table whose latest change is at or before `up_to`, in key order, as stored (JSON text). */
export interface SnapshotRows {
  up_to: number;
  rows: Array<{ pk: string; vals: string; clocks: string }>;
}

export interface HubStorage {
  /**
   * Webhook deliveries the hub owns (webhook-deliveries.ts): present where hosted hub processes
   * deliver them, absent on an install's embedded hub, whose endpoints its install delivers.
   */
  deliveries?: HubDeliveryStorage;
  ensureBusiness(accountId: string, now: string): Promise<void>;
  hasBusiness(accountId: string): Promise<boolean>;

  addPairingCode(code: {
    hash: string;
    account_id: string;
    name: string | null;
    created_at: string;
    expires_at: string;
  }): Promise<void>;
  /** The business an unexpired, unused code is for, without using it up. */
  peekPairingCode(hash: string, now: string): Promise<string | undefined>;
  /** Marks an unexpired, unused code used and returns it; undefined when it cannot be used. */
  redeemPairingCode(
    hash: string,
    now: string,
  ): Promise<{ account_id: string; name: string | null } | undefined>;

  /** False, adding nothing, when the business already has a device with that code. */
  addDevice(device: HubDevice & { credential_hash: string }): Promise<boolean>;
  deviceByCredential(hash: string): Promise<HubDevice | undefined>;
  listDevices(accountId: string): Promise<HubDevice[]>;
  revokeDevice(accountId: string, deviceId: string, now: string): Promise<boolean>;
  /** Deletes a device that never pushed: one made by a pairing that lost a race (pairing.ts). */
  forgetUnusedDevice(accountId: string, deviceId: string): Promise<void>;
  touchDevice(deviceId: string, now: string): Promise<void>;

  /**
   * Merges the changes into the resolved rows in one transaction, in hub order, after checking each
   * (push-authorization.ts): one refused change refuses the push whole. `operator`: the hub's own
   * install pushes, whose changes may include what only the operator changes. `sameCommit`: the
   * pushing install's own bookkeeping for the answer, run inside the push's transaction by a
   * storage that keeps the hub in that install's own file (the embedded hub), so push and
   * acknowledgement are one commit; other storages leave it to the caller (SameCommit).
   */
  push(
    accountId: string,
    deviceId: string,
    changes: PushedChange[],
    operator: boolean,
    sameCommit?: SameCommit,
  ): Promise<PushResult>;
  /**
   * Calls `listener` with the business a push changed, through whichever process shares this
   * store; returns the unsubscribe. Absent where only one process serves the store.
   */
  watchPushes?(listener: (accountId: string) => void): () => void;
  /**
   * A change the hub itself originates (a customer's action on the client hub, docs/client-hub.md):
   * merged like a pushed change, in one transaction holding the business's counter, so it takes the
   * next sequence number and devices pull it in hub order. Returns the rows it changed.
   */
  writeRow(accountId: string, table: string, pk: string, state: RowState): Promise<number>;
  /** A live row by key, whichever business holds it, with that business (client hub links). */
  readRow(table: string, pk: string): Promise<{ account_id: string; v: Record<string, unknown> } | undefined>;
  /** The business's live rows of a table whose `column` holds one of `values`. */
  readRows(
    accountId: string,
    table: string,
    column: string,
    values: string[],
  ): Promise<Array<Record<string, unknown>>>;
  /** Rows changed after `cursor`, in hub order. */
  pull(accountId: string, cursor: number, limit: number): Promise<{ rows: StoredRow[]; last_seq: number }>;
  /** A page of the business as it stood at a sequence number, for a first sync (hub/snapshot.ts). */
  snapshot(accountId: string, query: SnapshotQuery): Promise<SnapshotRows>;

  /** Starts a number series at `floor` unless the hub already counts it. */
  seedNumbers(accountId: string, series: string, floor: number): Promise<void>;
  /** Leases the next `size` numbers of a series to a device. */
  leaseNumbers(
    accountId: string,
    deviceId: string,
    series: string,
    size: number,
    now: string,
  ): Promise<{ start: number; end: number }>;
}
