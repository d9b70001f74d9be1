import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  SqliteDialect,
  type Transaction,
} from 'kysely';
import * as initial from './migrations/0001_initial';
import * as overviewIndexes from './migrations/0002_overview_indexes';
import * as webhooks from './migrations/0003_webhooks';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or a transaction: domain functions that only read accept both. */
export type Queryable = Db | Tx;

const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_overview_indexes': overviewIndexes,
  '0003_webhooks': webhooks,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface OpenedDatabase {
  db: Db;
  /** The raw driver, for the few hot paths that run one prepared statement (rate limits, benchmarks). */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

/** Opens (creating if needed) the data folder's database and brings its schema up to date. */
export async function openDatabase(dataDir: string): Promise<OpenedDatabase> {
  mkdirSync(dataDir, { recursive: true });
  const sqlite = new SQLite(path.join(dataDir, 'shopdesk.sqlite'));
  sqlite.pragma('journal_mode = WAL');
  sqlite.pragma('synchronous = NORMAL');
  sqlite.pragma('foreign_keys = ON');
  // The CLI may write while a server holds the file; wait for its lock instead of failing.
  sqlite.pragma('busy_timeout = 5000');
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  const { error, results } = await new Migrator({ db, provider }).migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    throw new Error(
      `Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
  return {
    db,
    sqlite,
    close: () => db.destroy(),
  };
}
