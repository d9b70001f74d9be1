import type SQLite from 'better-sqlite3-multiple-ciphers';
import type { Db } from '../db/database';
import { retryWhileBusy } from '../db/sqlite-driver';

/**
 * Runs work on the raw driver while holding Kysely's only connection: no request's transaction can
 * be open meanwhile, so the work may begin a transaction or switch pragmas. Work that finds the
 * file locked by another process (the CLI, a backup) before it changed anything is tried again.
 * Never call it from inside another `exclusive` or a Kysely transaction: it would wait forever.
 */
export function exclusive<T>(
  database: { db: Db; sqlite: SQLite.Database },
  fn: () => T | Promise<T>,
): Promise<T> {
  return database.db.connection().execute(() => retryWhileBusy(database.sqlite, async () => fn()));
}
