import type SQLite from 'better-sqlite3-multiple-ciphers';
import {
  CompiledQuery,
  type DatabaseConnection,
  type Driver,
  type QueryResult,
  SqliteDialect,
  type SqliteDialectConfig,
  SqliteDriver,
} from 'kysely';
import { isBusy } from './storage-errors';

/**
 * How long SQLite itself may wait for another process's write lock. better-sqlite3 waits
 * synchronously, stalling the whole event loop, so this stays short; longer waits happen below,
 * asynchronously, while the server keeps answering.
 */
export const SYNC_BUSY_TIMEOUT_MS = 10;
/**
 * Beyond this, a statement that still finds the file locked fails (503 database_busy). Longer than
 * the longest write the app itself holds the lock for: a customer import writing 200,000 rows in
 * its one transaction takes 15 to 30 s on a loaded machine, and an edit saved meanwhile waits it out.
 */
const BUSY_DEADLINE_MS = 60_000;
const BUSY_BACKOFF_MS = [5, 10, 20, 40, 80, 100];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Retries a statement that found another process (the CLI, a backup) holding the write lock.
 * Only outside a transaction: there a busy statement changed nothing and is safe to repeat. Inside
 * one it cannot happen, since every transaction takes the write lock when it begins.
 */
export async function retryWhileBusy<T>(sqlite: SQLite.Database, run: () => Promise<T>): Promise<T> {
  const started = performance.now();
  for (let attempt = 0; ; attempt++) {
    const inTransaction = sqlite.inTransaction;
    try {
      return await run();
    } catch (error) {
      if (!isBusy(error) || inTransaction || performance.now() - started > BUSY_DEADLINE_MS) throw error;
      await sleep(BUSY_BACKOFF_MS[Math.min(attempt, BUSY_BACKOFF_MS.length - 1)]!);
    }
  }
}

/**
 * Kysely's SQLite driver begins transactions with a plain (deferred) BEGIN, which takes the write
 * lock only at the first write: when another process wrote in between, SQLite cannot wait and
 * answers SQLITE_BUSY_SNAPSHOT. BEGIN IMMEDIATE takes the lock up front, where waiting is possible.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  private readonly connections = new WeakMap<DatabaseConnection, DatabaseConnection>();

  constructor(
    private readonly sqlite: SQLite.Database,
    config: SqliteDialectConfig,
  ) {
    super(config);
  }

  override async acquireConnection(): Promise<DatabaseConnection> {
    const inner = await super.acquireConnection();
    let wrapped = this.connections.get(inner);
    if (!wrapped) {
      wrapped = {
        executeQuery: <R>(query: CompiledQuery): Promise<QueryResult<R>> =>
          retryWhileBusy(this.sqlite, () => inner.executeQuery<R>(query)),
        streamQuery: (query, chunkSize) => inner.streamQuery(query, chunkSize),
      };
      this.connections.set(inner, wrapped);
    }
    return wrapped;
  }

  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'));
  }

  /**
   * SQLite rolls a transaction back by itself after some failures (a full disk among them); a
   * second ROLLBACK would then fail and hide the error that explains what happened.
   */
  override async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    if (this.sqlite.inTransaction) await super.rollbackTransaction(connection);
  }
}

export class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly sqlite: SQLite.Database,
    private readonly config: SqliteDialectConfig,
  ) {
    super(config);
  }

  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.sqlite, this.config);
  }
}
