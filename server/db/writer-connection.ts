import type SQLite from 'better-sqlite3-multiple-ciphers';
import { Kysely } from 'kysely';
import { type DatabaseKey, openSqliteFile } from './cipher';
import { type Db, withStatementCache } from './database';
import { ImmediateSqliteDialect, SYNC_BUSY_TIMEOUT_MS } from './sqlite-driver';

/**
 * The page cache of the run's connection, for its main and its temporary database alike, in KiB
 * (SQLite's negative cache_size). The server's connection keeps the default 16 MB; a run reads the
 * file once and writes each page of its staging tables a few times, and with 16 MB each it kept
 * 32 MB more memory once the file was large enough to fill them: with 4 MB it keeps 8 MB whatever
 * the file's size, and what it writes spills to the write-ahead log (main) or the temporary file.
 */
const RUN_CACHE_KIB = 4096;

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
    sqlite.pragma(`cache_size = -${RUN_CACHE_KIB}`);
    sqlite.pragma(`temp.cache_size = -${RUN_CACHE_KIB}`);
    sqlite.pragma('temp_store = FILE');
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
