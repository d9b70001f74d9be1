import { isDeleted, mergeStates, type RowState } from '../merge';
import { ALIAS_TABLE, DELETED, IDENTITY_COLUMNS, type SyncedTable } from '../synced-table';
import { syncedTable } from '../tables';
import type { PushedChange } from './storage';

/**
 * What the hub does with one pushed change, whatever stores its rows (docs/sync.md, "The hub"):
 * follow merged records, merge the change into the resolved row by the merge rules, and merge a
 * second live record with the same natural key into the first. Decisions are made here, in hub
 * order, and reach devices as rows, so every device ends with the same records.
 */
export interface HubRowStore {
  get(table: string, pk: string): Promise<RowState | undefined>;
  put(table: string, pk: string, state: RowState, naturalKey: string | null): Promise<void>;
  /** A live row of the table with this natural key, other than `pk`. */
  findLive(table: string, naturalKey: string, pk: string): Promise<string | undefined>;
  aliasOf(table: string, id: string): Promise<string | undefined>;
  addAlias(table: string, from: string, to: string): Promise<void>;
  /**
   * The business a row with this key belongs to, whichever business's push is running; undefined
   * when no business holds it. The embedded hub asks its install's own tables (owner.ts), which
   * may hold several businesses; a hosted hub asks its rows of every business.
   */
  owner(table: SyncedTable, key: unknown[]): Promise<string | undefined>;
}

/**
 * Whether a push left every row it names exactly as the pushing replica holds it: each column at
 * the value and clock it pushed, no alias followed, no record merged. Set to false by the merge.
 */
export interface AsPushed {
  exact: boolean;
}

/** Merges one change; returns how many rows changed (each took the next sequence number in `put`). */
export async function mergePushedChange(
  store: HubRowStore,
  change: PushedChange,
  asPushed: AsPushed = { exact: true },
): Promise<number> {
  const table = syncedTable(change.table);
  if (!table) throw new Error(`Unknown synced table ${change.table}`);
  const state = await followAliases(store, table, change.state);
  const key = JSON.parse(change.pk) as unknown[];
  for (const [i, column] of table.pk.entries()) {
    const target = table.refs?.[column];
    const to = target && (await store.aliasOf(target, String(key[i])));
    if (to) key[i] = to;
  }
  const pk = JSON.stringify(key);
  if (state !== change.state || pk !== change.pk) asPushed.exact = false;
  const mergedInto = table.naturalKey ? await store.aliasOf(table.name, String(key[0])) : undefined;
  // A merged-away record keeps its own row, without its key: the survivor holds the key now.
  let changed = await mergeInto(store, table, pk, state, !mergedInto, asPushed);
  const before = changed;
  if (mergedInto) {
    asPushed.exact = false;
    changed += await mergeInto(store, table, JSON.stringify([mergedInto]), withoutIdentity(state));
  } else if (changed && table.naturalKey) changed += await mergeDuplicate(store, table, pk);
  if (changed && table.recordsMergeOf) changed += await mergeByOwner(store, table.recordsMergeOf, state);
  if (changed !== before) asPushed.exact = false;
  return changed;
}

/**
 * An owner merged one record into another on a device: the hub writes the alias a natural-key
 * merge writes, so devices repoint the merged record's references and later changes to it made
 * elsewhere land on the survivor.
 */
async function mergeByOwner(store: HubRowStore, tableName: string, merge: RowState): Promise<number> {
  const from = String(merge.v.from_id);
  const to = String(merge.v.to_id);
  if (from === to || (await store.aliasOf(tableName, from))) return 0;
  await store.addAlias(tableName, from, to);
  await store.put(ALIAS_TABLE, JSON.stringify([tableName, from]), { v: { to_id: to }, c: {} }, null);
  const pk = JSON.stringify([from]);
  const merged = await store.get(tableName, pk);
  // The merged-away row keeps no natural key: the survivor may take its e-mail.
  if (!merged) return 1;
  await store.put(tableName, pk, merged, null);
  return 2;
}

async function mergeInto(
  store: HubRowStore,
  table: SyncedTable,
  pk: string,
  incoming: RowState,
  keyed = true,
  asPushed: AsPushed = { exact: true },
): Promise<number> {
  const base = await store.get(table.name, pk);
  // Append-only rows (payments, events) are written once: a correction is a new row.
  if (base && table.appendOnly) {
    if (!holds(base, incoming)) asPushed.exact = false;
    return 0;
  }
  const { state, changed } = mergeStates(table, base, incoming);
  if (!holds(state, incoming)) asPushed.exact = false;
  if (changed.length === 0) return 0;
  await store.put(table.name, pk, state, keyed ? naturalKeyOf(table, state) : null);
  return 1;
}

/** Every column of `pushed` stands in `state` at the value and clock it was pushed with. */
function holds(state: RowState, pushed: RowState): boolean {
  for (const [column, value] of Object.entries(pushed.v)) {
    if (state.c[column] !== pushed.c[column]) return false;
    const held = state.v[column];
    if (held !== value && JSON.stringify(held ?? null) !== JSON.stringify(value ?? null)) return false;
  }
  return true;
}

/** A second live record with the key of an existing one merges into the existing one. */
async function mergeDuplicate(store: HubRowStore, table: SyncedTable, pk: string): Promise<number> {
  const state = await store.get(table.name, pk);
  const key = state && naturalKeyOf(table, state);
  if (!state || !key) return 0;
  const survivor = await store.findLive(table.name, key, pk);
  if (!survivor) return 0;
  const from = String((JSON.parse(pk) as unknown[])[0]);
  const to = String((JSON.parse(survivor) as unknown[])[0]);
  // In this order, so a device pulling in hub order learns of the merge before it meets either row.
  await store.addAlias(table.name, from, to);
  await store.put(ALIAS_TABLE, JSON.stringify([table.name, from]), { v: { to_id: to }, c: {} }, null);
  await store.put(table.name, pk, state, null);
  const survivorState = (await store.get(table.name, survivor))!;
  const merged = mergeStates(table, survivorState, withoutIdentity(state)).state;
  // Rewritten even when nothing changed: devices must see the survivor after the merge, in order.
  await store.put(table.name, survivor, merged, naturalKeyOf(table, merged));
  return 3;
}

async function followAliases(store: HubRowStore, table: SyncedTable, state: RowState): Promise<RowState> {
  let v = state.v;
  for (const [column, target] of Object.entries(table.refs ?? {})) {
    const value = v[column];
    if (typeof value !== 'string') continue;
    const to = await store.aliasOf(target, value);
    if (to) v = { ...v, [column]: to };
  }
  return v === state.v ? state : { ...state, v };
}

export function withoutIdentity(state: RowState): RowState {
  const keep = ([column]: [string, unknown]) => !IDENTITY_COLUMNS.has(column);
  return {
    v: Object.fromEntries(Object.entries(state.v).filter(keep)),
    c: Object.fromEntries(Object.entries(state.c).filter(keep)),
    ...(state.a ? { a: Object.fromEntries(Object.entries(state.a).filter(keep)) } : {}),
  };
}

/** The natural key a live row holds; a deleted row holds none. */
export function naturalKeyOf(table: SyncedTable, state: RowState): string | null {
  if (!table.naturalKey || isDeleted(state) || state.v[DELETED] === undefined) return null;
  const value = state.v[table.naturalKey];
  return typeof value === 'string' && value !== '' ? value : null;
}
