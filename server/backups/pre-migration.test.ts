import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, Migrator, SqliteDialect } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteFile } from '../db/cipher';
import { databaseFile, migrationProvider } from '../db/database';
import { manualClock } from '../lib/clock';
import { Backups } from './backups';
import { openDatabaseWithBackups } from './open';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('the backup before a migration', () => {
  it('copies the database as it was before pending migrations change it', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-premigration-'));
    folders.push(dataDir);
    // A database an older Shopdesk left: only the first migration ran.
    const old = new Kysely<unknown>({
      dialect: new SqliteDialect({ database: openSqliteFile(databaseFile(dataDir), null) }),
    });
    await new Migrator({ db: old, provider: migrationProvider }).migrateTo('0001_initial');
    await old.destroy();

    const backups = new Backups({ dataDir, key: null, clock: manualClock() });
    const database = await openDatabaseWithBackups(backups);
    await database.close();
    const [copy] = backups.list();
    expect(copy).toMatchObject({ reason: 'pre-migration', result: 'verified' });
    expect(copy!.tables.kysely_migration).toBe(1);

    // Up to date now: opening again takes no further copy.
    await (await openDatabaseWithBackups(backups)).close();
    expect(backups.list()).toHaveLength(1);
  });

  it('takes no copy of a brand-new database', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-premigration-'));
    folders.push(dataDir);
    const backups = new Backups({ dataDir, key: null, clock: manualClock() });
    await (await openDatabaseWithBackups(backups)).close();
    expect(backups.list()).toEqual([]);
  });
});
