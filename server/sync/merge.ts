import { DELETED, type SyncedTable } from './synced-table';

/**
 * The merge rules shared by the hub and every device (docs/sync.md, "Merge rules"). A row's state
 * is its column values with a clock per column; merging keeps, per column, the value whose clock
 * ranks later. The merge is commutative, associative and idempotent, so every replica that has
 * seen the same changes holds the same row, whatever the order they arrived in.
 */
export interface RowState {
  v: Record<string, unknown>;
  c: Record<string, string>;
  /**
   * Who wrote each column's value and on which device (docs/crew-design.md, "Who made each
   * change"): it rides with the value it names. Absent for values written before actors, or by a
   * peer that does not send them.
   */
  a?: Record<string, ChangeAuthor>;
}

/** An actor (server/lib/actor.ts) and the name the hub knows the pushing device by. */
export interface ChangeAuthor {
  by: string;
  on?: string;
}

/**
 * The clock a column value is ordered by. Status columns rank first (a completed job beats a
 * cancelled one whichever came later), so their clock carries the rank in front; a column telling
 * of a status (`rankedWith`) carries the rank of that status in the same state (`row`). A value that
 * never changed since the business was first synced has the empty clock: anything beats it.
 */
export function effectiveClock(
  table: SyncedTable,
  column: string,
  value: unknown,
  clock: string | undefined,
  row: Record<string, unknown> = {},
) {
  const status = table.rankedWith?.[column];
  const [ranked, rankedValue] = status ? [status, row[status]] : [column, value];
  const ranks = table.ranks?.[ranked];
  if (!ranks) return clock ?? '';
  const rank = ranks[String(rankedValue)] ?? 0;
  return `${rank}~${clock ?? ''}`;
}

/** Whether (value a, clock a) wins over (value b, clock b); equal clocks fall back to the value. */
export function wins(aClock: string, aValue: unknown, bClock: string, bValue: unknown): boolean {
  if (aClock !== bClock) return aClock > bClock;
  return JSON.stringify(aValue ?? null) > JSON.stringify(bValue ?? null);
}

/** Columns of `incoming` that win over `base`; a column `base` lacks is always taken. */
export function winningColumns(table: SyncedTable, base: RowState | undefined, incoming: RowState): string[] {
  const out: string[] = [];
  for (const [column, value] of Object.entries(incoming.v)) {
    if (!base || !(column in base.v)) {
      out.push(column);
      continue;
    }
    const a = effectiveClock(table, column, value, incoming.c[column], incoming.v);
    const b = effectiveClock(table, column, base.v[column], base.c[column], base.v);
    if (wins(a, value, b, base.v[column])) out.push(column);
  }
  return out;
}

/** The merge of two states of one row, and the columns that changed in `base`. */
export function mergeStates(
  table: SyncedTable,
  base: RowState | undefined,
  incoming: RowState,
): { state: RowState; changed: string[] } {
  const changed = winningColumns(table, base, incoming);
  if (!base)
    return { state: withAuthors({ v: { ...incoming.v }, c: { ...incoming.c } }, incoming.a), changed };
  const state: RowState = { v: { ...base.v }, c: { ...base.c } };
  const authors = { ...base.a };
  for (const column of changed) {
    state.v[column] = incoming.v[column];
    const clock = incoming.c[column];
    if (clock === undefined) delete state.c[column];
    else state.c[column] = clock;
    const author = incoming.a?.[column];
    if (author) authors[column] = author;
    else delete authors[column];
  }
  return { state: withAuthors(state, authors), changed };
}

function withAuthors(state: RowState, authors: Record<string, ChangeAuthor> | undefined): RowState {
  if (authors && Object.keys(authors).length > 0) state.a = { ...authors };
  return state;
}

export function isDeleted(state: RowState): boolean {
  return state.v[DELETED] === 1;
}
