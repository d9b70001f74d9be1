import { ApiError, validationError } from '../../lib/errors';
import { DELETED, operatorColumns, type SyncedTable, writableColumns } from '../synced-table';
import { syncedTable } from '../tables';
import { type AsPushed, type HubRowStore, mergePushedChange } from './push-merge';
import type { PushedChange } from './storage';

/**
 * What a pushed change may do (docs/sync.md, "What a device may write"; shared invariant 10). The
 * business comes from the device's credential, never from the row: a change naming another
 * business, or belonging through its parent to one the hub does not hold for this business, is
 * refused, and so is a column only the operator changes. One refused change refuses the whole push,
 * inside its transaction, so nothing of it is applied.
 */
export interface PushAuthority {
  /** The business of the device's credential. */
  business: string;
  /** The hub's own install, where the operator works: its pushes may change operator columns. */
  operator: boolean;
}

/** A change's key is its table's key, and the key columns it carries are that key's (422 otherwise). */
export function checkChangeShape(change: PushedChange, index: number): void {
  const table = syncedTable(change.table)!;
  const at = `changes[${index}]`;
  const key = parseKey(table, change.pk, at);
  const v = change.state.v;
  for (const [i, column] of table.pk.entries()) {
    if (column in v && v[column] !== key[i]) {
      throw validationError(
        `The row's ${column} (${String(v[column])}) is not the one its key names (${String(key[i])}).`,
        `${at}.state.v.${column}`,
      );
    }
  }
}

/**
 * Refuses a change the device may not make, with the push's earlier changes merged; answers the
 * change to merge: without the operator's columns it carried at the values the hub holds, so a
 * device's clock never outranks the operator's next change of them.
 */
export async function authorizeChange(
  store: HubRowStore,
  authority: PushAuthority,
  change: PushedChange,
  index: number,
): Promise<PushedChange> {
  const table = syncedTable(change.table)!;
  const at = `changes[${index}]`;
  const key = JSON.parse(change.pk) as unknown[];
  const base = await store.get(table.name, change.pk);
  const kept = checkColumns(table, change, base?.v, authority, at);
  await checkBusiness(store, table, change, key, base?.v, authority.business, at);
  if (kept.length === Object.keys(change.state.v).length) return change;
  const pick = <T>(record: Record<string, T>) =>
    Object.fromEntries(Object.entries(record).filter(([column]) => kept.includes(column)));
  const { v, c, a } = change.state;
  return { ...change, state: { v: pick(v), c: pick(c), ...(a ? { a: pick(a) } : {}) } };
}

function parseKey(table: SyncedTable, pk: string, at: string): unknown[] {
  let key: unknown;
  try {
    key = JSON.parse(pk);
  } catch {
    key = undefined;
  }
  const valid =
    Array.isArray(key) &&
    key.length === table.pk.length &&
    key.every((part) => typeof part === 'string' || typeof part === 'number');
  if (!valid) {
    throw validationError(
      `The key of a ${table.name} row is the JSON array of its ${table.pk.join(', ')}.`,
      `${at}.pk`,
    );
  }
  return key as unknown[];
}

function checkColumns(
  table: SyncedTable,
  change: PushedChange,
  held: Record<string, unknown> | undefined,
  authority: PushAuthority,
  at: string,
): string[] {
  const writable = writableColumns(table);
  const operator = operatorColumns(table);
  const kept: string[] = [];
  for (const column in change.state.v) {
    if (writable.has(column) || (operator.has(column) && (authority.operator || !held))) {
      kept.push(column);
      continue;
    }
    // A value the hub holds already changes nothing (an insert carries every column); a row the
    // hub does not hold yet is a business arriving with its plans (an upload to a hosted hub).
    if (operator.has(column)) {
      if (sameValue(held?.[column], change.state.v[column])) continue;
      throw notWritable(
        table,
        change,
        column,
        at,
        `${table.name}.${column} is changed by the hub's operator (shopdesk plan on the hub's folder), not by a device's push.`,
      );
    }
    throw notWritable(table, change, column, at, `${table.name}.${column} is not a column a device sends.`);
  }
  return kept;
}

// Built only when a change is refused: a push checks every column of every row it carries.
function notWritable(
  table: SyncedTable,
  change: PushedChange,
  column: string,
  at: string,
  message: string,
): ApiError {
  return new ApiError(403, 'column_not_writable', message, {
    param: `${at}.state.v.${column}`,
    details: { table: table.name, pk: change.pk, column },
  });
}

async function checkBusiness(
  store: HubRowStore,
  table: SyncedTable,
  change: PushedChange,
  key: unknown[],
  held: Record<string, unknown> | undefined,
  business: string,
  at: string,
): Promise<void> {
  const refuse = (message: string, column?: string) =>
    new ApiError(403, 'cross_business_change', message, {
      param: column ? `${at}.state.v.${column}` : `${at}.pk`,
      details: { table: table.name, pk: change.pk, ...(column && { column }) },
    });
  const v = change.state.v;
  const deletionOnly = Object.keys(v).every((column) => column === DELETED);

  if (table.name === 'accounts' && key[0] !== business)
    throw refuse(`A device of ${business} may not change the account ${String(key[0])}.`);
  const heldBy = await store.owner(table, key);
  if (heldBy !== undefined && heldBy !== business)
    throw refuse(`The ${table.name} row ${change.pk} belongs to another business.`);

  if (table.writable.includes('account_id')) {
    if ('account_id' in v && v.account_id !== business)
      throw refuse(`A device of ${business} may not write rows of ${String(v.account_id)}.`, 'account_id');
    if (!held && !('account_id' in v) && !deletionOnly)
      throw refuse(`A new ${table.name} row names no business: send its account_id.`, 'account_id');
  }

  for (const [column, targets] of Object.entries(table.parents ?? {})) {
    const position = table.pk.indexOf(column);
    const id = column in v ? v[column] : position >= 0 ? key[position] : held?.[column];
    const owning = column === table.ownedVia;
    if (typeof id !== 'string') {
      if (owning && !deletionOnly && !held)
        throw refuse(`A new ${table.name} row names no ${column}.`, column);
      continue;
    }
    // The row belongs to its business through this parent: the hub must hold the parent for it.
    if (owning) {
      if (await heldForBusiness(store, targets, id)) continue;
      throw refuse(`${table.name} names ${column} ${id}, which is not a row of ${business}.`, column);
    }
    const elsewhere = await ownerOfId(store, targets, id);
    if (elsewhere !== undefined && elsewhere !== business)
      throw refuse(`${table.name} names ${column} ${id}, a row of another business.`, column);
  }
}

/** The business of the first of `tables` that holds a row with this id. */
async function ownerOfId(store: HubRowStore, tables: string[], id: string): Promise<string | undefined> {
  for (const name of tables) {
    const owner = await store.owner(syncedTable(name)!, [id]);
    if (owner !== undefined) return owner;
  }
  return undefined;
}

async function heldForBusiness(store: HubRowStore, tables: string[], id: string): Promise<boolean> {
  for (const table of tables) if (await store.get(table, JSON.stringify([id]))) return true;
  return false;
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/**
 * A device's push, in its order: a change at or below what the hub acknowledged already is a resend
 * and skipped; every other one is authorized, then merged. Both hub storages run pushes through it.
 */
export async function mergePush(
  store: HubRowStore,
  authority: PushAuthority,
  changes: PushedChange[],
  acknowledgedBefore: number,
): Promise<{ acknowledged: number; accepted: number; asPushed: boolean }> {
  let acknowledged = acknowledgedBefore;
  let accepted = 0;
  const asPushed: AsPushed = { exact: true };
  for (const [index, change] of changes.entries()) {
    // A resend may differ from what the hub took the first time.
    if (change.local_seq <= acknowledged) {
      asPushed.exact = false;
      continue;
    }
    acknowledged = change.local_seq;
    const authorized = await authorizeChange(store, authority, change, index);
    accepted += await mergePushedChange(store, authorized, asPushed);
  }
  return { acknowledged, accepted, asPushed: asPushed.exact };
}
