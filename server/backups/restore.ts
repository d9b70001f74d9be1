import { copyFileSync, renameSync, rmSync } from 'node:fs';
import type { Backup, RestoreResult } from '../../shared/schemas/backup';
import { fileKeyPragmas, rekeyPragmas } from '../db/cipher';
import { type Db, databaseFile } from '../db/database';
import { sameContent } from '../db/encrypt-in-place';
import { runFileTask } from '../db/file-worker';
import type { SessionsTable } from '../db/schema';
import { syncFile } from '../lib/durable-files';
import { ApiError } from '../lib/errors';
import { resetSyncAfterRestore } from '../sync/restore';
import type { Backups } from './backups';

/**
 * Everything a restore does lives here, so what must follow it (sync's re-join, see docs/backups.md)
 * has one place to hook in.
 *
 * A restore is two steps. `prepareRestore` works beside the database while it is still in use: it
 * copies the backup to `shopdesk.sqlite.restoring` (encrypting it if it predates encryption) and
 * proves the copy intact and identical to what the backup held when written. `completeRestore` needs
 * the database closed (the running server pauses around it, server/index.ts; the CLI refuses while a
 * server runs): it keeps the current data as a 'pre-restore' backup, then gives the copy the
 * database's name in one rename. Until that rename the database is untouched, and a leftover
 * `.restoring` is removed at the next open.
 */
export interface PreparedRestore {
  restored: Backup;
  copy: string;
}

const unusable = (message: string) => new ApiError(409, 'backup_unusable', message);

export async function prepareRestore(backups: Backups, id: string): Promise<PreparedRestore> {
  const restored = backups.find(id);
  if (restored.result === 'missing') throw unusable(`Backup ${id} cannot be restored: its file is gone.`);
  if (restored.encrypted && !backups.key)
    throw unusable(`Backup ${id} is encrypted and this server has no key.`);
  const copy = `${databaseFile(backups.dataDir)}.restoring`;
  try {
    copyFileSync(restored.file, copy);
    if (!restored.encrypted && backups.key)
      await runFileTask({ kind: 'rekey', file: copy, rekeyPragmas: rekeyPragmas(backups.key) });
    const found = await runFileTask({
      kind: 'verify',
      file: copy,
      keyPragmas: fileKeyPragmas(copy, backups.key),
    }).catch((error: Error) => ({ integrity: error.message, tables: {} }));
    if (!sameContent({ integrity: 'ok', tables: restored.tables }, found))
      throw unusable(`Backup ${id} did not verify (${found.integrity}); nothing was changed.`);
    syncFile(copy);
    return { restored, copy };
  } catch (error) {
    discardRestore({ restored, copy });
    throw error;
  }
}

export function discardRestore(prepared: PreparedRestore): void {
  rmSync(prepared.copy, { force: true });
}

export async function completeRestore(backups: Backups, prepared: PreparedRestore): Promise<RestoreResult> {
  const live = databaseFile(backups.dataDir);
  try {
    const safetyCopy = await backups.create('pre-restore');
    // The closed database's WAL is empty, but a stale one would be replayed onto the restored file.
    rmSync(`${live}-wal`, { force: true });
    rmSync(`${live}-shm`, { force: true });
    renameSync(prepared.copy, live);
    backups.recordRestore(prepared.restored);
    return { restored: prepared.restored, safety_copy: safetyCopy };
  } finally {
    discardRestore(prepared);
  }
}

/** Both steps, for a database nobody has open (the CLI). */
export async function restoreDatabase(backups: Backups, id: string): Promise<RestoreResult> {
  return completeRestore(backups, await prepareRestore(backups, id));
}

/** Device-local rows that outlive a restore: read from the database before it closes. */
export interface KeptAcrossRestore {
  sessions: SessionsTable[];
}

export async function keepAcrossRestore(db: Db): Promise<KeptAcrossRestore> {
  return { sessions: await db.selectFrom('sessions').selectAll().execute() };
}

/**
 * After the restored database opened: the UI sessions signed in now stay signed in (when their account
 * exists in the backup), so the owner who pressed Restore sees the result rather than a sign-in page.
 */
export async function afterRestore(db: Db, kept: KeptAcrossRestore): Promise<void> {
  await resetSyncAfterRestore(db);
  const accounts = new Set((await db.selectFrom('accounts').select('id').execute()).map((a) => a.id));
  const sessions = kept.sessions.filter((s) => accounts.has(s.account_id));
  if (sessions.length > 0)
    await db
      .insertInto('sessions')
      .values(sessions)
      .onConflict((oc) => oc.column('hash').doNothing())
      .execute();
}
