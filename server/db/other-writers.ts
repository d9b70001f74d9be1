import type SQLite from 'better-sqlite3-multiple-ciphers';

const versions = new WeakMap<object, () => number>();
const accountWrites = new WeakMap<object, () => number>();

/**
 * Lets in-process caches notice writes they did not make: SQLite's `data_version` moves whenever
 * another connection (the CLI, another process on the file) commits, and never for this
 * connection's own commits, which the cache's owner sees happen. One prepared statement, a few
 * microseconds.
 */
export function watchOtherWriters(db: object, sqlite: SQLite.Database): void {
  const statement = sqlite.prepare('PRAGMA data_version').pluck();
  versions.set(db, () => statement.get() as number);
}

/** The database's count of other connections' commits, or null when it is not watched (caches then stay off). */
export function otherWritersVersion(db: object): number | null {
  return versions.get(db)?.() ?? null;
}

/**
 * Counts this connection's own writes to the accounts table, whichever code makes them (a settings
 * change, a plan change, a sync pull applying the hub's row, raw SQL): TEMP triggers (never stored
 * in the file, gone with the connection) call back into this process on every insert, update and
 * delete. With `data_version` for every other connection, a cached account row is known current.
 * Call it after the migrations: a migration that rebuilds the table drops the triggers on it.
 */
export function watchAccountWrites(db: object, sqlite: SQLite.Database): void {
  let writes = 0;
  sqlite.function('shopdesk_account_written', { deterministic: false }, () => {
    writes++;
    return null;
  });
  for (const event of ['insert', 'update', 'delete']) {
    sqlite.exec(
      `CREATE TEMP TRIGGER IF NOT EXISTS shopdesk_account_${event} AFTER ${event.toUpperCase()} ON main.accounts
       BEGIN SELECT shopdesk_account_written(); END`,
    );
  }
  accountWrites.set(db, () => writes);
}

/** How many times this connection has written the accounts table, or null when not watched. */
export function ownAccountWrites(db: object): number | null {
  return accountWrites.get(db)?.() ?? null;
}
