import { mkdirSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  type SqliteDatabase,
  SqliteDialect,
  type Transaction,
} from 'kysely';
import * as initial from './migrations/0001_initial';
import * as overviewIndexes from './migrations/0002_overview_indexes';
import * as webhooks from './migrations/0003_webhooks';
import * as overviewRollups from './migrations/0004_overview_rollups';
import type { Database } from './schema';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or a transaction: domain functions that only read accept both. */
export type Queryable = Db | Tx;

const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_overview_indexes': overviewIndexes,
  '0003_webhooks': webhooks,
  '0004_overview_rollups': overviewRollups,
};

const provider: MigrationProvider = { getMigrations: async () => migrations };

export interface OpenedDatabase {
  db: Db;
  /** The raw driver, for the few hot paths that run one prepared statement (rate limits, benchmarks). */
  sqlite: SQLite.Database;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; preparing costs as much as running a small query. The same
 * SQL text always compiles to the same statement, so keep the most recent ones. Kysely runs one
 * query at a time on this connection, so a cached statement is never busy when it is reused.
 */
function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
  const statements = new Map<string, SQLite.Statement>();
  return {
    close: () => sqlite.close(),
    prepare: (text: string) => {
      let statement = statements.get(text);
      if (statement) {
        // Map order is insertion order: re-inserting marks it as the most recently used.
        statements.delete(text);
      } else {
        statement = sqlite.prepare(text);
        if (statements.size >= STATEMENT_CACHE_SIZE) statements.delete(statements.keys().next().value!);
      }
      statements.set(text, statement);
      return statement;
    },
  };
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
  const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: withStatementCache(sqlite) }) });
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
