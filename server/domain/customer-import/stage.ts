import { type RawBuilder, sql } from 'kysely';
import type { Queryable, Tx } from '../../db/database';
import type { CustomerImportRowsTable } from '../../db/import-schema';
import type { CustomerNotesTable, CustomersTable, CustomerTagsTable, PropertiesTable } from '../../db/schema';

/**
 * An import is prepared outside the write lock and applied inside it. Reading the file, checking
 * each row, matching it against the customers and deciding what it does take most of a run; all
 * of it goes into temporary tables of the run's own connection (on disk like any table, so memory
 * stays flat however long the file). The import then copies them into the real tables in one
 * short transaction, a few INSERT … SELECT and one UPDATE … FROM, which holds the write lock for
 * seconds where the whole run would hold it for as long as it reads the file.
 */

/** The tables an import writes, in the order their rows go in (a customer before its tags), with the columns it sets. */
const COLUMNS = {
  customers: [
    'id',
    'account_id',
    'name',
    'email',
    'email_lower',
    'phone',
    'address',
    'created_at',
    'updated_at',
    'deleted_at',
  ] satisfies Array<keyof CustomersTable>,
  customer_tags: ['customer_id', 'tag'] satisfies Array<keyof CustomerTagsTable>,
  customer_notes: ['id', 'customer_id', 'text', 'created_at'] satisfies Array<keyof CustomerNotesTable>,
  properties: [
    'id',
    'account_id',
    'customer_id',
    'label',
    'street',
    'unit',
    'city',
    'region',
    'postal_code',
    'country',
    'access_notes',
    'is_default',
    'status',
    'archived_at',
    'created_at',
    'updated_at',
  ] satisfies Array<keyof PropertiesTable>,
  customer_import_rows: [
    'import_id',
    'customer_id',
    'source_row',
    'action',
    'stamp',
    'before',
  ] satisfies Array<keyof CustomerImportRowsTable>,
};

export interface StagedRows {
  customers: CustomersTable[];
  customer_tags: CustomerTagsTable[];
  customer_notes: CustomerNotesTable[];
  properties: PropertiesTable[];
  customer_import_rows: CustomerImportRowsTable[];
}

/** An existing customer a row updates: its fields as the import leaves them. */
export type StagedUpdate = Pick<CustomersTable, 'name' | 'email' | 'email_lower' | 'phone' | 'address'> & {
  customer_id: string;
  updated_at: string;
};

/** An existing customer a row was matched with, as it was then: the row's verdict holds while it is so. */
export type StagedMatch = { customer_id: string; updated_at: string };

const TABLES = Object.keys(COLUMNS) as Array<keyof typeof COLUMNS>;
const UPDATE_COLUMNS = ['customer_id', 'name', 'email', 'email_lower', 'phone', 'address', 'updated_at'];

const run = (db: Queryable, query: RawBuilder<unknown>) => query.execute(db);
const stageTable = (table: string) => sql.table(`temp.stage_${table}`);
const columnList = (columns: readonly string[]) => sql.join(columns.map((c) => sql.ref(c)));

export const emptyStage = (): StagedRows => ({
  customers: [],
  customer_tags: [],
  customer_notes: [],
  properties: [],
  customer_import_rows: [],
});

/** Empty staging tables on this connection, each shaped as the table it stands for. */
export async function openStage(db: Queryable): Promise<void> {
  await closeStage(db);
  for (const table of TABLES) {
    await run(
      db,
      sql`CREATE TEMP TABLE ${sql.id(`stage_${table}`)} AS SELECT ${columnList(COLUMNS[table])} FROM ${sql.table(`main.${table}`)} WHERE 0`,
    );
  }
  await run(
    db,
    sql`CREATE TEMP TABLE stage_updates AS SELECT ${sql.ref('id')} AS customer_id, name, email, email_lower, phone, address, updated_at FROM main.customers WHERE 0`,
  );
  await run(
    db,
    sql`CREATE TEMP TABLE stage_matches (customer_id TEXT PRIMARY KEY, updated_at TEXT NOT NULL)`,
  );
  // What this run has settled so far (see batch.ts): a later row with one of these keys repeats an earlier one.
  await run(
    db,
    sql`CREATE TEMP TABLE import_seen (key TEXT PRIMARY KEY, row INTEGER NOT NULL) WITHOUT ROWID`,
  );
}

export async function closeStage(db: Queryable): Promise<void> {
  for (const table of [...TABLES, 'updates', 'matches'])
    await run(db, sql`DROP TABLE IF EXISTS ${stageTable(table)}`);
  await run(db, sql`DROP TABLE IF EXISTS temp.import_seen`);
}

/**
 * Adds rows to a staging table in one statement whose text is the same for every batch: the rows
 * go in as one JSON array bound to it. A statement with a VALUES list per row had a text (and a
 * prepared program of its own, kept in the connection's statement cache) for each row count met,
 * and a syntax tree of every value built and compiled for each batch.
 */
async function insertRows(
  db: Queryable,
  table: string,
  columns: readonly string[],
  rows: ReadonlyArray<object>,
  verb = sql`INSERT`,
) {
  if (!rows.length) return;
  const values = JSON.stringify(
    rows.map((row) => columns.map((c) => (row as Record<string, unknown>)[c] ?? null)),
  );
  const picked = sql.join(columns.map((_, i) => sql.raw(`json_extract(value, '$[${i}]')`)));
  await run(
    db,
    sql`${verb} INTO ${stageTable(table)} (${columnList(columns)}) SELECT ${picked} FROM json_each(${values}) ORDER BY key`,
  );
}

/** Adds a batch's rows to the staging tables. */
export async function stageRows(
  db: Queryable,
  rows: StagedRows,
  updates: StagedUpdate[],
  matches: StagedMatch[],
) {
  for (const table of TABLES) await insertRows(db, table, COLUMNS[table], rows[table]);
  await insertRows(db, 'updates', UPDATE_COLUMNS, updates);
  await insertRows(db, 'matches', ['customer_id', 'updated_at'], matches, sql`INSERT OR IGNORE`);
}

/** Changes when another connection commits to the file: unchanged, nothing the stage read has moved. */
export async function dataVersion(db: Queryable): Promise<number> {
  const { rows } = await sql<{ data_version: number }>`PRAGMA data_version`.execute(db);
  return Number(rows[0]!.data_version);
}

const digits = (phone: string | null) => (phone ?? '').replace(/\D/g, '');
const PAGE = 1000;
/** Rows a statement applies: a fraction of a second of the event loop, even on a loaded machine. */
const APPLY_ROWS = 2000;
/** Lets the event loop answer the requests that came in while a statement ran. */
export const breathe = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Whether what was staged is still right, asked inside the write transaction. Since the file
 * was read, someone may have edited or removed a customer a row was matched with, or added one
 * that a row staged as new now matches (by e-mail, or by name and phone). When nobody wrote to the
 * file at all (`version` unchanged, the usual case) there is nothing to look at.
 */
export async function stageHolds(tx: Tx, accountId: string, version: number): Promise<boolean> {
  if ((await dataVersion(tx)) === version) return true;
  const { rows: moved } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM temp.stage_matches m LEFT JOIN main.customers c ON c.id = m.customer_id
    WHERE c.id IS NULL OR c.updated_at IS NOT m.updated_at`.execute(tx);
  if (Number(moved[0]!.n) > 0) return false;
  const { rows: byEmail } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM temp.stage_customers s JOIN main.customers c
      ON c.account_id = ${accountId} AND c.email_lower = s.email_lower
    WHERE s.email_lower IS NOT NULL`.execute(tx);
  if (Number(byEmail[0]!.n) > 0) return false;
  // Name and phone: the names in SQL (an index), the phones' digits here; a page at a time.
  for (let after = 0; ; ) {
    const { rows } = await sql<{ at: number; phone: string; existing: string | null }>`
      SELECT s.rowid AS at, s.phone, c.phone AS existing
      FROM (SELECT rowid, name, phone FROM temp.stage_customers
            WHERE email_lower IS NULL AND phone IS NOT NULL AND rowid > ${after} ORDER BY rowid LIMIT ${PAGE}) s
      LEFT JOIN main.customers c ON c.account_id = ${accountId} AND lower(c.name) = lower(s.name)
      ORDER BY s.rowid`.execute(tx);
    if (!rows.length) return true;
    if (rows.some((r) => r.existing !== null && digits(r.existing) === digits(r.phone) && digits(r.phone)))
      return false;
    after = rows[rows.length - 1]!.at;
    await breathe();
  }
}

/**
 * Copies the staged rows into the real tables and applies the updates, in the caller's
 * transaction, APPLY_ROWS at a time: better-sqlite3 runs each statement on the event loop, and one
 * statement for 200,000 customers (with their triggers) stopped the server long enough for its
 * idle timeouts to close every connection waiting on it. Between two statements it answers them.
 */
export async function applyStage(tx: Tx): Promise<void> {
  for (const table of [...TABLES, 'updates'] as const) {
    const { rows } = await sql<{
      top: number | null;
    }>`SELECT max(rowid) AS top FROM ${stageTable(table)}`.execute(tx);
    for (let from = 0; from < (rows[0]?.top ?? 0); from += APPLY_ROWS) {
      const range = sql`rowid > ${from} AND rowid <= ${from + APPLY_ROWS}`;
      if (table === 'updates') {
        await run(
          tx,
          sql`UPDATE main.customers SET name = u.name, email = u.email, email_lower = u.email_lower,
            phone = u.phone, address = u.address, updated_at = u.updated_at
          FROM (SELECT * FROM temp.stage_updates WHERE ${range}) u WHERE customers.id = u.customer_id`,
        );
      } else {
        const columns = columnList(COLUMNS[table]);
        await run(
          tx,
          sql`INSERT INTO ${sql.table(`main.${table}`)} (${columns})
            SELECT ${columns} FROM ${stageTable(table)} WHERE ${range} ORDER BY rowid`,
        );
      }
      await breathe();
    }
  }
}

/** The ids of the customers the import adds, in the file's order, a page at a time. */
export async function* stagedCustomerIds(tx: Tx): AsyncGenerator<string[]> {
  for (let after = 0; ; ) {
    const { rows } = await sql<{ at: number; id: string }>`
      SELECT rowid AS at, id FROM temp.stage_customers WHERE rowid > ${after} ORDER BY rowid LIMIT ${PAGE}`.execute(
      tx,
    );
    if (!rows.length) return;
    yield rows.map((r) => r.id);
    after = rows[rows.length - 1]!.at;
    await breathe();
  }
}
