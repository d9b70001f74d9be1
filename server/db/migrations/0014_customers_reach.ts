import { type Kysely, sql } from 'kysely';

/**
 * Customers without e-mail (docs/decisions.md, "Customers and their places"): `email` and
 * `email_lower` lose NOT NULL. SQLite cannot drop a NOT NULL in place, so the table is rebuilt
 * with its indexes and triggers; openDatabase runs migrations with foreign keys off (the rebuild
 * drops the table every other one refers to) and this checks them before committing.
 * `customer_merges` records the owner's merges of two customers, for sync (append-only).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const dependents = await sql<{ sql: string }>`
    SELECT sql FROM sqlite_master
    WHERE tbl_name = 'customers' AND type IN ('index', 'trigger') AND sql IS NOT NULL`.execute(db);
  await sql
    .raw(`CREATE TABLE customers_rebuilt (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      name TEXT NOT NULL,
      email TEXT,
      email_lower TEXT,
      phone TEXT,
      address TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT,
      UNIQUE (account_id, email_lower)
    )`)
    .execute(db);
  await sql
    .raw(`INSERT INTO customers_rebuilt (id, account_id, name, email, email_lower, phone, address, created_at, updated_at, deleted_at)
      SELECT id, account_id, name, email, email_lower, phone, address, created_at, updated_at, deleted_at FROM customers`)
    .execute(db);
  await sql.raw('DROP TABLE customers').execute(db);
  await sql.raw('ALTER TABLE customers_rebuilt RENAME TO customers').execute(db);
  for (const { sql: statement } of dependents.rows) await sql.raw(statement).execute(db);
  await sql
    .raw(`CREATE TABLE customer_merges (
      from_id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      to_id TEXT NOT NULL,
      merged_at TEXT NOT NULL
    )`)
    .execute(db);
  const broken = await sql<{ table: string }>`PRAGMA foreign_key_check`.execute(db);
  if (broken.rows.length > 0)
    throw new Error(`Rebuilding customers left references without their row in ${broken.rows[0]!.table}`);
}
