import path from 'node:path';
import { ApiError } from '../lib/errors';

/**
 * What a failure of the data file or its disk means, in words an owner can act on. Every message
 * about the data folder lives here, so the advice stays the same wherever the failure shows.
 */

export type StorageProblem = 'busy' | 'full' | 'damaged' | 'read_only' | 'cannot_open';

/** SQLite's codes (better-sqlite3's SqliteError) and the file system's (ENOSPC…). */
export function storageProblem(error: unknown): StorageProblem | null {
  // Garbage over a page of the schema can leave text that fails to parse; SQLite may then report
  // it under another code than SQLITE_CORRUPT, yet the file is just as damaged.
  if (
    error instanceof Error &&
    /^(malformed database schema|database disk image is malformed)/.test(error.message)
  )
    return 'damaged';
  const code = (error as { code?: unknown } | null | undefined)?.code;
  if (typeof code !== 'string') return null;
  if (code.startsWith('SQLITE_BUSY')) return 'busy';
  if (code === 'SQLITE_FULL' || code === 'ENOSPC') return 'full';
  if (code.startsWith('SQLITE_CORRUPT') || code === 'SQLITE_NOTADB') return 'damaged';
  if (code.startsWith('SQLITE_READONLY') || code === 'EROFS') return 'read_only';
  if (code.startsWith('SQLITE_CANTOPEN') || ['EACCES', 'EPERM', 'ENOTDIR', 'EEXIST'].includes(code))
    return 'cannot_open';
  return null;
}

export const isBusy = (error: unknown) => storageProblem(error) === 'busy';

/** Refuses to start on a data folder, with one line that says why and what to do. Never a stack trace. */
export class DataFolderError extends Error {
  override name = 'DataFolderError';
}

export const DATABASE_FILE = 'shopdesk.sqlite';

/** Where the owner finds backups to restore (the backup job writes them there). */
export function backupsFolder(dataDir: string): string {
  return path.join(dataDir, 'backups');
}

function restoreAdvice(dataDir: string): string {
  return `Restore the latest good backup from ${backupsFolder(dataDir)} (copy it to ${path.join(dataDir, DATABASE_FILE)}), then start Shopdesk again; keep the damaged file aside for support.`;
}

export function damagedMessage(dataDir: string, detail: string): string {
  return `The data file ${path.join(dataDir, DATABASE_FILE)} is damaged (${detail}), so Shopdesk will not serve it. ${restoreAdvice(dataDir)}`;
}

export function emptiedMessage(dataDir: string): string {
  return `The data file ${path.join(dataDir, DATABASE_FILE)} is empty (0 bytes): the business data it held is gone, so Shopdesk will not start a new business in its place. ${restoreAdvice(dataDir)} If this is a new installation, delete the empty file to start afresh.`;
}

/** The one line for a data folder that cannot be opened at all. */
export function openFailureMessage(dataDir: string, error: unknown): string {
  const file = path.join(dataDir, DATABASE_FILE);
  const reason = error instanceof Error ? error.message : String(error);
  switch (storageProblem(error)) {
    case 'damaged':
      return damagedMessage(dataDir, reason);
    case 'read_only':
      return `The data file ${file} is read-only (or on a read-only disk), so Shopdesk could not save anything to it. Make the file and its folder writable, or start with another --data-dir.`;
    case 'full':
      return `The disk holding ${dataDir} is full. Free some space on it, then try again.`;
    case 'cannot_open':
      return `Shopdesk cannot open or create ${file} (${reason}). Check that ${dataDir} is a folder you may write to, or start with another --data-dir.`;
    case 'busy':
      return `Another program kept ${file} locked and did not let go. Close it, then try again.`;
    default:
      return `Shopdesk could not open ${file}: ${reason}`;
  }
}

export const insufficientStorage = () =>
  new ApiError(
    507,
    'insufficient_storage',
    "The disk holding Shopdesk's data is full, so this change was not saved. Free some space on that disk, then try again; everything saved before is safe and can still be viewed.",
  );

export const databaseBusy = () =>
  new ApiError(
    503,
    'database_busy',
    "Another program kept Shopdesk's data file locked, so this change was not saved. Try again in a moment.",
    { headers: { 'Retry-After': '1' } },
  );

export const databaseDamaged = (message: string) => new ApiError(503, 'database_damaged', message);
