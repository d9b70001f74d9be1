import { existsSync, mkdirSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3-multiple-ciphers';
import {
  Kysely,
  type Migration,
  type MigrationProvider,
  Migrator,
  type SqliteDatabase,
  type Transaction,
} from 'kysely';
import { keepIdsAfter } from '../lib/ids';
import { type DatabaseKey, DatabaseKeyError, isPlainDatabaseFile, openSqliteFile } from './cipher';
import { encryptInPlace } from './encrypt-in-place';
import { runningServer } from './folder-lock';
import { quickCheck, StorageHealth, startupCheck } from './integrity';
import * as initial from './migrations/0001_initial';
import * as overviewIndexes from './migrations/0002_overview_indexes';
import * as webhooks from './migrations/0003_webhooks';
import * as overviewRollups from './migrations/0004_overview_rollups';
import * as sync from './migrations/0005_sync';
import * as ownerWeek from './migrations/0007_owner_week';
import * as recurring from './migrations/0008_recurring';
import * as remindersTax from './migrations/0009_reminders_tax';
import * as hubWebhooks from './migrations/0011_hub_webhooks';
import * as eventArrivals from './migrations/0012_event_arrivals';
import * as decisionsHistory from './migrations/0013_decisions_history';
import * as customersReach from './migrations/0014_customers_reach';
import * as properties from './migrations/0015_properties';
import * as recordPlaces from './migrations/0016_record_places';
import * as clientLinks from './migrations/0018_client_links';
import * as clientActions from './migrations/0019_client_actions';
import * as customerImports from './migrations/0020_customer_imports';
import * as customerFigures from './migrations/0021_customer_figures';
import * as bookingRequestsReviews from './migrations/0023_booking_requests_reviews';
import * as timeEntries from './migrations/0024_time_entries';
import * as importRuns from './migrations/0027_import_runs';
import * as paymentTaxShares from './migrations/0029_payment_tax_shares';
import * as businessLogos from './migrations/0030_business_logos';
import * as members from './migrations/0031_members';
import * as invitesPasskeys from './migrations/0032_member_invites_passkeys';
import * as crewActions from './migrations/0033_crew_actions';
import * as jobPhotos from './migrations/0034_job_photos';
import * as changeActors from './migrations/0035_change_actors';
import * as customerFiguresNewCustomers from './migrations/0036_customer_figures_new_customers';
import { watchAccountWrites, watchOtherWriters } from './other-writers';
import type { Database } from './schema';
import { ImmediateSqliteDialect, SYNC_BUSY_TIMEOUT_MS } from './sqlite-driver';
import {
  DATABASE_FILE,
  DataFolderError,
  emptiedMessage,
  openFailureMessage,
  storageProblem,
} from './storage-errors';
import { hookWrites } from './write-hooks';

export type Db = Kysely<Database>;
export type Tx = Transaction<Database>;
/** Either the database or a transaction: domain functions that only read accept both. */
export type Queryable = Db | Tx;

const migrations: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_overview_indexes': overviewIndexes,
  '0003_webhooks': webhooks,
  '0004_overview_rollups': overviewRollups,
  '0005_sync': sync,
  '0007_owner_week': ownerWeek,
  '0008_recurring': recurring,
  '0009_reminders_tax': remindersTax,
  '0011_hub_webhooks': hubWebhooks,
  '0012_event_arrivals': eventArrivals,
  '0013_decisions_history': decisionsHistory,
  '0014_customers_reach': customersReach,
  '0015_properties': properties,
  '0016_record_places': recordPlaces,
  '0020_customer_imports': customerImports,
  '0021_customer_figures': customerFigures,
  '0023_booking_requests_reviews': bookingRequestsReviews,
  '0024_time_entries': timeEntries,
  '0027_import_runs': importRuns,
  '0018_client_links': clientLinks,
  '0019_client_actions': clientActions,
  '0029_payment_tax_shares': paymentTaxShares,
  '0030_business_logos': businessLogos,
  '0031_members': members,
  '0032_member_invites_passkeys': invitesPasskeys,
  '0033_crew_actions': crewActions,
  '0034_job_photos': jobPhotos,
  '0035_change_actors': changeActors,
  '0036_customer_figures_new_customers': customerFiguresNewCustomers,
};

/** Sent with every sync request: a hub refuses a device whose schema is newer than its own. */
export const SCHEMA_VERSION = Object.keys(migrations).length;

/** Every migration, by name; the Migrator runs the pending ones in name order. */
export const migrationProvider: MigrationProvider = { getMigrations: async () => migrations };

/** The data folder's database, checked and migrated; sync/open.ts adds the change capture every writer needs. */
export interface DatabaseFile {
  db: Db;
  /** The raw driver, for the few hot paths that run one prepared statement (rate limits, benchmarks). */
  sqlite: SQLite.Database;
  /** The database file's path. */
  file: string;
  health: StorageHealth;
  close(): Promise<void>;
}

const STATEMENT_CACHE_SIZE = 500;

/**
 * Kysely prepares every query it runs; preparing costs as much as running a small query. The same
 * SQL text always compiles to the same statement, so keep the most recent ones. Kysely runs one
 * query at a time on this connection, so a cached statement is never busy when it is reused.
 */
export function withStatementCache(sqlite: SQLite.Database): SqliteDatabase {
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

/** Keeps the write-ahead log from staying at its high-water mark after a burst of writes. */
const JOURNAL_SIZE_LIMIT_BYTES = 64 * 1024 * 1024;

/** Each table's newest id is one index lookup; together they give the newest id in the file. */
function keepIdsAfterNewestRecord(sqlite: SQLite.Database): void {
  const tables = sqlite
    .prepare(
      `SELECT m.name FROM sqlite_master m JOIN pragma_table_info(m.name) c
       WHERE m.type = 'table' AND c.name = 'id' AND c.pk = 1 AND c.type = 'TEXT'`,
    )
    .pluck()
    .all() as string[];
  for (const table of tables) {
    const newest = sqlite.prepare(`SELECT max(id) FROM "${table}"`).pluck().get();
    if (typeof newest === 'string') keepIdsAfter(newest);
  }
}

/** An emptied file would otherwise open as a new database, and a first start would make a new business in it. */
function refuseEmptiedFile(dataDir: string, file: string): void {
  const size = statSync(file, { throwIfNoEntry: false })?.size;
  if (size === 0) throw new DataFolderError(emptiedMessage(dataDir));
}

function openChecked(
  dataDir: string,
  file: string,
  key: DatabaseKey | null,
  checkedInBackground: boolean,
): SQLite.Database {
  refuseEmptiedFile(dataDir, file);
  const sqlite = openSqliteFile(file, key);
  try {
    // SQLite quietly falls back to read-only when it may not write; every write would then fail.
    if (sqlite.readonly) throw Object.assign(new Error('read-only'), { code: 'SQLITE_READONLY' });
    sqlite.pragma(`busy_timeout = ${SYNC_BUSY_TIMEOUT_MS}`);
    sqlite.pragma('journal_mode = WAL');
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    sqlite.pragma(`journal_size_limit = ${JOURNAL_SIZE_LIMIT_BYTES}`);
    if (checkedInBackground) startupCheck(sqlite);
    else quickCheck(sqlite, dataDir);
    return sqlite;
  } catch (error) {
    sqlite.close();
    throw error;
  }
}

export function databaseFile(dataDir: string): string {
  return path.join(dataDir, DATABASE_FILE);
}

/** Where a restore or an encryption writes its copy before the swap; a leftover is an interrupted one. */
const SWAP_SUFFIXES = ['.restoring', '.encrypting'];

export interface OpenDatabaseOptions {
  /** Encrypts the database at rest; a plain database found with a key is encrypted in place first. */
  key?: DatabaseKey | null;
  /** Runs before pending migrations touch an existing database: the backup that makes them undoable. */
  beforeMigrating?: () => Promise<unknown>;
  /** The caller is the folder's server and holds its lock: no other server can be running on it. */
  holdsFolderLock?: boolean;
  /**
   * The caller runs the full integrity check in the background (the server does): opening then checks
   * only what costs the same at any size, instead of reading every page before the first answer.
   */
  checkedInBackground?: boolean;
}

/**
 * Opens (creating if needed) the data folder's database, checks it and brings its schema up to
 * date. A folder it cannot use is refused with a DataFolderError: one line that says why.
 */
export async function openDatabaseFile(
  dataDir: string,
  options: OpenDatabaseOptions = {},
): Promise<DatabaseFile> {
  const file = databaseFile(dataDir);
  const key = options.key ?? null;
  let sqlite: SQLite.Database;
  try {
    mkdirSync(dataDir, { recursive: true });
    const running = options.holdsFolderLock ? null : runningServer(dataDir);
    // Leftovers of an interrupted restore or encryption; under a running server they may be its work.
    if (!running) for (const suffix of SWAP_SUFFIXES) rmSync(`${file}${suffix}`, { force: true });
    if (key && existsSync(file) && statSync(file).size > 0 && isPlainDatabaseFile(file)) {
      // The swap would leave the running server writing to the plain file it replaced.
      if (running)
        throw new DataFolderError(
          `Encrypting ${file} needs it to itself: stop the server (pid ${running.pid}), then start it with the key.`,
        );
      await encryptInPlace(file, key);
    }
    sqlite = openChecked(dataDir, file, key, options.checkedInBackground ?? false);
  } catch (error) {
    if (error instanceof DataFolderError || error instanceof DatabaseKeyError) throw error;
    throw new DataFolderError(openFailureMessage(dataDir, error));
  }
  const db = new Kysely<Database>({
    dialect: new ImmediateSqliteDialect(sqlite, { database: withStatementCache(sqlite) }),
  });
  hookWrites(db);
  watchOtherWriters(db, sqlite);
  const migrator = new Migrator({ db, provider: migrationProvider });
  try {
    const known = await migrator.getMigrations();
    const pending = known.some((m) => !m.executedAt);
    if (pending && known.some((m) => m.executedAt) && options.beforeMigrating)
      await options.beforeMigrating();
  } catch (error) {
    await db.destroy();
    throw error;
  }
  // A migration that rebuilds a table drops the table others refer to; each checks the references itself.
  sqlite.pragma('foreign_keys = OFF');
  const { error, results } = await migrator.migrateToLatest().finally(() => {
    sqlite.pragma('foreign_keys = ON');
  });
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    await db.destroy();
    if (storageProblem(error)) throw new DataFolderError(openFailureMessage(dataDir, error));
    throw new Error(
      `Database migration failed${failed ? ` at ${failed.migrationName}` : ''}: ${String(error)}`,
    );
  }
  keepIdsAfterNewestRecord(sqlite);
  watchAccountWrites(db, sqlite);
  return {
    db,
    sqlite,
    file,
    health: new StorageHealth(dataDir),
    close: () => db.destroy(),
  };
}
