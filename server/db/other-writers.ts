import type SQLite from 'better-sqlite3-multiple-ciphers';

const versions = new WeakMap<object, () => number>();

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
