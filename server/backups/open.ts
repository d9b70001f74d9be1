import type { OpenDatabaseOptions } from '../db/database';
import { type OpenedDatabase, openDatabase } from '../sync/open';
import type { Backups } from './backups';

/**
 * Opens the data folder's database the way every entry point must: a backup before pending migrations
 * run, and, when a key turns encryption on, the backups written before it encrypted like the database.
 */
export async function openDatabaseWithBackups(
  backups: Backups,
  options: Pick<OpenDatabaseOptions, 'holdsFolderLock' | 'checkedInBackground'> = {},
): Promise<OpenedDatabase> {
  const database = await openDatabase(backups.dataDir, {
    key: backups.key,
    beforeMigrating: () => backups.create('pre-migration'),
    ...options,
  });
  await backups.encryptPlainBackups();
  return database;
}
