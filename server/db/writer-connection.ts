import type SQLite from 'better-sqlite3-multiple-ciphers';
import { Kysely } from 'kysely';
import { type DatabaseKey, openSqliteFile } from './cipher';
import { type Db, withStatementCache } from './database';
import { ImmediateSqliteDialect, SYNC_BUSY_TIMEOUT_MS } from './sqlite-driver';

/** A second connection to the data folder's database, for one long write, closed when it is done. */
export interface WriterConnection {
  db: Db;
  close(): Promise<void>;
}

/**
 * Opens another connection to the same file, set up as the server's own. A long write (a customer
 * import of 50,000 rows) holds its transaction here, so the server's connection keeps answering:
 * reads see the last commit (WAL), and a write waits for the lock asynchronously (sqlite-driver.ts)
 * instead of queuing behind the import. `attach` defines the functions the triggers call
 * (sync/capture.ts), so its writes are captured as the server's are.
 */
export function openWriterConnection(
  file: string,
  key: DatabaseKey | null,
  attach: (sqlite: SQLite.Database) => void,
): WriterConnection {
  const sqlite = openSqliteFile(file, key, { fileMustExist: true });
  try {
    sqlite.pragma(`busy_timeout = ${SYNC_BUSY_TIMEOUT_MS}`);
    sqlite.pragma('synchronous = NORMAL');
    sqlite.pragma('foreign_keys = ON');
    attach(sqlite);
  } catch (error) {
    sqlite.close();
    throw error;
  }
  const db: Db = new Kysely({
    dialect: new ImmediateSqliteDialect(sqlite, { database: withStatementCache(sqlite) }),
  });
  return { db, close: () => db.destroy() };
}
