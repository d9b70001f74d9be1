import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { databaseFile } from '../../server/db/database';
import { type OpenedDatabase, openDatabase } from '../../server/sync/open';

let template: Promise<Buffer> | undefined;

/**
 * A migrated, empty database for this test process, made once and kept in memory (its folder goes at
 * once: a worker may be killed rather than exit): a new folder starts with a copy, so opening it
 * does not run every migration again (about half of a server start's CPU, most of a domain test's
 * set-up). What an open on a folder without a database does is tested where a folder is given.
 */
function migratedTemplate(): Promise<Buffer> {
  template ??= (async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-test-template-'));
    try {
      await (await openDatabase(dir)).close();
      return readFileSync(databaseFile(dir));
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  })();
  return template;
}

/**
 * The template's copy in `dataDir`, with a sync node of its own: the node id is what tells one
 * install's changes from another's (migration 0005 gives each new file one), and copies of one
 * template would otherwise all sync as the same install.
 */
export async function copyMigratedTemplate(dataDir: string): Promise<void> {
  const file = databaseFile(dataDir);
  writeFileSync(file, await migratedTemplate());
  const sqlite = new SQLite(file);
  try {
    sqlite.prepare('UPDATE sync_node SET id = ?').run(randomBytes(6).toString('hex'));
  } finally {
    sqlite.close();
  }
}

/** A new folder holding a migrated, empty database, opened: what a domain test starts from. */
export async function openMigratedDatabase(
  prefix: string,
): Promise<{ dir: string; database: OpenedDatabase }> {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  await copyMigratedTemplate(dir);
  return { dir, database: await openDatabase(dir) };
}
