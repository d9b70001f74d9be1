import { type Kysely, sql } from 'kysely';

/**
 * Customer imports (docs/import-export.md): the file an owner uploaded, what was done with it, and
 * for each customer it created or updated what undoing it needs. Device-local: an import is undone
 * on the install that made it, and its writes sync like any edit.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE customer_imports (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      file_name TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      encoding TEXT NOT NULL,
      delimiter TEXT NOT NULL,
      headers TEXT NOT NULL,
      status TEXT NOT NULL CHECK (status IN ('uploaded', 'imported', 'undone')),
      settings TEXT,
      dry_run TEXT,
      result TEXT,
      created_at TEXT NOT NULL,
      imported_at TEXT,
      undone_at TEXT
    )`)
    .execute(db);
  await sql.raw('CREATE INDEX customer_imports_account ON customer_imports(account_id, id)').execute(db);
  await sql
    .raw(`CREATE TABLE customer_import_rows (
      import_id TEXT NOT NULL REFERENCES customer_imports(id),
      customer_id TEXT NOT NULL,
      source_row INTEGER NOT NULL,
      action TEXT NOT NULL CHECK (action IN ('created', 'updated')),
      stamp TEXT NOT NULL,
      before TEXT,
      PRIMARY KEY (import_id, customer_id)
    )`)
    .execute(db);
  // Matching by name and phone looks customers up by name, a batch of rows at a time.
  await sql.raw('CREATE INDEX customers_name_lower ON customers(account_id, lower(name))').execute(db);
}
