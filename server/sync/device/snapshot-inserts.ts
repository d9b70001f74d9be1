import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { SyncedTable } from '../synced-table';
import { sqlValue } from './apply';
import type { LocalState } from './local-state';

/**
 * A first sync's INSERTs (device/snapshot-join.ts): each snapshot row's values bound straight
 * from the object the page's JSON gave, without a row object of its own. A first sync writes
 * millions of rows, and building one object per row (its defaults, then its columns) and listing
 * its keys were a tenth of the joiner's time and much of its garbage.
 */

/** Rows per INSERT: one call into SQLite for many rows of a table. */
const INSERT_ROWS = 50;

const FROM_ROW = 0;
const DEFAULT = 1;
const DERIVED = 2;

/**
 * How the rows of one table whose values list the same columns in the same order go in: the
 * pages of a table nearly always hold one such list, so it is worked out once.
 */
export interface RowShape {
  readonly table: SyncedTable;
  /** The values' own keys, in their order. */
  readonly keys: string[];
  /** The INSERT's columns. */
  readonly names: string[];
  /** Per INSERT column, where its value comes from: the row, the table's defaults, the derived figures. */
  readonly sources: number[];
  readonly defaults: Record<string, unknown>;
  /** Whether the row gives a column this device has. */
  readonly given: Set<string>;
  /** INSERT_ROWS rows' bound values, filled in place. */
  readonly batch: unknown[];
  statements?: { batch: SQLite.Statement; one: SQLite.Statement };
}

export class SnapshotInserts {
  private readonly shapes = new Map<string, RowShape>();
  private last: RowShape | undefined;
  /** The shape of the rows waiting, and how many wait in its batch. */
  private pending: RowShape | undefined;
  private rows = 0;

  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly local: LocalState,
  ) {}

  /** The shape of a row's values; `derived` names the figures the loader works out for each row. */
  shapeOf(table: SyncedTable, values: Record<string, unknown>, derived: readonly string[]): RowShape {
    const last = this.last;
    if (last && last.table === table && sameKeys(last.keys, values)) return last;
    const keys = Object.keys(values);
    const signature = `${table.name}(${keys.join(',')})`;
    let shape = this.shapes.get(signature);
    if (!shape) {
      shape = this.newShape(table, keys, derived);
      this.shapes.set(signature, shape);
    }
    this.last = shape;
    return shape;
  }

  /** Queues a row; `figures` holds its derived figures (read for the shape's derived columns). */
  add(shape: RowShape, values: Record<string, unknown>, figures: Record<string, unknown>): void {
    if (this.pending !== shape) {
      this.flush();
      this.pending = shape;
    }
    const { names, sources, defaults, batch } = shape;
    let at = this.rows * names.length;
    for (let i = 0; i < names.length; i++) {
      const name = names[i]!;
      const source = sources[i];
      batch[at++] = sqlValue(
        source === FROM_ROW ? values[name] : source === DEFAULT ? defaults[name] : figures[name],
      );
    }
    if (++this.rows === INSERT_ROWS) this.flush();
  }

  /** Writes the rows waiting: a whole batch in one statement, a short one a row at a time. */
  flush(): void {
    const shape = this.pending;
    const rows = this.rows;
    this.pending = undefined;
    this.rows = 0;
    if (!shape || rows === 0) return;
    const statements = this.statementsOf(shape);
    if (rows === INSERT_ROWS) {
      statements.batch.run(shape.batch);
      return;
    }
    const width = shape.names.length;
    for (let r = 0; r < rows; r++) statements.one.run(shape.batch.slice(r * width, (r + 1) * width));
  }

  private newShape(table: SyncedTable, keys: string[], derived: readonly string[]): RowShape {
    const columns = this.local.columnsOf(table);
    const defaults = this.local.requiredDefaultsOf(table);
    const given = new Set(keys.filter((key) => columns.has(key)));
    const names: string[] = [];
    const sources: number[] = [];
    const put = (name: string, source: number) => {
      if (names.includes(name)) return;
      names.push(name);
      sources.push(source);
    };
    for (const name of derived) put(name, DERIVED);
    for (const name of given) put(name, FROM_ROW);
    for (const name in defaults) put(name, DEFAULT);
    return { table, keys, names, sources, defaults, given, batch: new Array(names.length * INSERT_ROWS) };
  }

  private statementsOf(shape: RowShape): { batch: SQLite.Statement; one: SQLite.Statement } {
    if (!shape.statements) {
      const row = `(${shape.names.map(() => '?').join(', ')})`;
      const insert = `INSERT INTO ${shape.table.name} (${shape.names.join(', ')}) VALUES `;
      shape.statements = {
        batch: this.sqlite.prepare(insert + Array(INSERT_ROWS).fill(row).join(', ')),
        one: this.sqlite.prepare(insert + row),
      };
    }
    return shape.statements;
  }
}

/** Whether a row of this shape gives a value for the column: its own or the table's default. */
export function hasColumn(shape: RowShape, column: string): boolean {
  return shape.given.has(column) || column in shape.defaults;
}

/** A column's value as the row goes in: the row's own, else the table's default. */
export function columnValue(shape: RowShape, values: Record<string, unknown>, column: string): unknown {
  return shape.given.has(column) ? values[column] : shape.defaults[column];
}

/** Whether an object's keys are `keys`, in that order (no list of them made). */
function sameKeys(keys: string[], values: Record<string, unknown>): boolean {
  let i = 0;
  for (const key in values) if (keys[i++] !== key) return false;
  return i === keys.length;
}
