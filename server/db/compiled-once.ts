import type { Compilable, CompiledQuery, Insertable } from 'kysely';
import type { Queryable } from './database';
import type { Database } from './schema';

interface Compiled {
  query: CompiledQuery;
  /** For each parameter of the compiled query, the value it takes: a name of `values`, or the constant. */
  slots: Array<{ name: string } | { constant: unknown }>;
}

const compiled = new Map<string, Compiled>();

/**
 * Runs a query that hot paths ask for with the same shape and new values (a list's first page):
 * Kysely builds and compiles it once per `shape`, and each later run only puts the values in.
 * Building and compiling a join costs about as much as SQLite running the indexed read itself.
 * `build` must use each value as a bound value only, unchanged, and branch only on what `shape`
 * names: it is called with stand-ins once.
 */
export async function runCompiledOnce<Row, Values extends Record<string, unknown>>(
  db: Queryable,
  shape: string,
  values: Values,
  build: (values: Values) => Compilable<Row>,
): Promise<Row[]> {
  let entry = compiled.get(shape);
  if (!entry) {
    const standIns = Object.fromEntries(
      Object.keys(values).map((name) => [name, `\u0000${shape}\u0000${name}`]),
    ) as Values;
    const query = build(standIns).compile();
    const names = new Map(Object.entries(standIns).map(([name, standIn]) => [standIn, name]));
    const slots = query.parameters.map((value) => {
      const name = names.get(value);
      return name === undefined ? { constant: value } : { name };
    });
    entry = { query, slots };
    compiled.set(shape, entry);
  }
  const parameters = entry.slots.map((slot) => ('name' in slot ? values[slot.name] : slot.constant));
  const result = await db.executeQuery<Row>({ ...entry.query, parameters } as CompiledQuery<Row>);
  return result.rows;
}

/**
 * Inserts rows into `table`, compiled once per table, column list and row count: a creation's
 * document, its lines and its taxes. Every row must define the same columns (an undefined one is
 * left out, as Kysely leaves it out).
 */
export async function insertCompiledOnce<Table extends keyof Database & string>(
  db: Queryable,
  table: Table,
  rows: ReadonlyArray<Insertable<Database[Table]>>,
): Promise<void> {
  if (rows.length === 0) return;
  const columns = Object.entries(rows[0]!)
    .filter(([, value]) => value !== undefined)
    .map(([column]) => column);
  const values: Record<string, unknown> = {};
  rows.forEach((row, i) => {
    for (const column of columns) values[`${i}.${column}`] = (row as Record<string, unknown>)[column];
  });
  await runCompiledOnce(db, `insert ${table} ${rows.length} (${columns.join(',')})`, values, (v) =>
    db
      .insertInto(table)
      .values(
        rows.map((_, i) =>
          Object.fromEntries(columns.map((column) => [column, v[`${i}.${column}`]])),
        ) as never,
      ),
  );
}
