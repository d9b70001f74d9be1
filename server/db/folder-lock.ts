import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { DataFolderError, openFailureMessage, storageProblem } from './storage-errors';

/** Holds the operating system's lock; never deleted, so every process locks the same file. */
const LOCK_FILE = 'server.lock';
/** Who holds the lock, for the message a second server prints. Never opened by the holder's lock. */
const HOLDER_FILE = 'server.json';

interface Holder {
  pid: number;
  url: string | null;
  started_at: string;
}

export interface FolderLock {
  /** Records the address the server listens on, for a second server's message. */
  announce(url: string): void;
  release(): void;
}

function writeHolder(dataDir: string, holder: Holder): void {
  const file = path.join(dataDir, HOLDER_FILE);
  writeFileSync(`${file}.tmp`, JSON.stringify(holder));
  renameSync(`${file}.tmp`, file);
}

function readHolder(dataDir: string): Holder | null {
  try {
    return JSON.parse(readFileSync(path.join(dataDir, HOLDER_FILE), 'utf8')) as Holder;
  } catch {
    return null;
  }
}

function alreadyRunning(dataDir: string): DataFolderError {
  const holder = readHolder(dataDir);
  const where = holder?.url ? ` at ${holder.url}` : '';
  const who = holder ? ` (process ${holder.pid}${holder.url ? '' : ', still starting'})` : '';
  return new DataFolderError(
    `Shopdesk is already running on this folder${where}${who}: ${dataDir}. Use that server, or stop it before starting another; the CLI works alongside it.`,
  );
}

/** Tries the operating system's lock once: true when this process now holds it. */
function tryLock(lock: SQLite.Database): boolean {
  try {
    lock.pragma('journal_mode = MEMORY');
    lock.exec('BEGIN EXCLUSIVE; COMMIT');
    return true;
  } catch (error) {
    if (storageProblem(error) === 'busy') return false;
    throw error;
  }
}

/**
 * Whether the process the holder file names is still alive: then the lock is really held and
 * a long wait for it is pointless. Only a holder that is gone (killed a moment ago) is worth one.
 */
function holderIsAlive(dataDir: string): boolean {
  const holder = readHolder(dataDir);
  if (!holder || holder.pid === process.pid) return false;
  try {
    process.kill(holder.pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's process.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * A process killed a moment ago still holds its lock until the system has finished ending it (and
 * still answers as alive until then): a short wait when the holder seems alive, a longer one when
 * it is gone and only the system is slow to let go.
 */
const ALIVE_WAIT_MS = 500;
const TAKEOVER_WAIT_MS = 3000;

/**
 * One server per data folder. The lock is SQLite's own exclusive lock on a small file of its own
 * (fcntl on Unix, LockFileEx on Windows): the operating system drops it when the process ends,
 * however it ends, so a crash leaves no stale lock to judge by pid, and two servers starting at
 * once cannot both win. The CLI does not take it: it is meant to run beside a server.
 */
export async function lockDataFolder(dataDir: string): Promise<FolderLock> {
  let lock: SQLite.Database;
  try {
    mkdirSync(dataDir, { recursive: true });
    lock = new SQLite(path.join(dataDir, LOCK_FILE));
  } catch (error) {
    throw new DataFolderError(openFailureMessage(dataDir, error));
  }
  try {
    lock.pragma('busy_timeout = 0');
    // In exclusive locking mode SQLite keeps the lock of its first write transaction until closed.
    lock.pragma('locking_mode = EXCLUSIVE');
    const started = performance.now();
    while (!tryLock(lock)) {
      const waited = performance.now() - started;
      if (waited > TAKEOVER_WAIT_MS || (waited > ALIVE_WAIT_MS && holderIsAlive(dataDir)))
        throw alreadyRunning(dataDir);
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    lock.close();
    if (error instanceof DataFolderError) throw error;
    throw new DataFolderError(openFailureMessage(dataDir, error));
  }
  const holder: Holder = { pid: process.pid, url: null, started_at: new Date().toISOString() };
  writeHolder(dataDir, holder);
  return {
    announce: (url) => writeHolder(dataDir, { ...holder, url }),
    release: () => {
      rmSync(path.join(dataDir, HOLDER_FILE), { force: true });
      lock.close();
    },
  };
}

/**
 * The server running on this folder, if one is: whoever holds the lock. Asked by what must not
 * happen under a running server (a restore, encrypting in place); a lock left by a crash is free.
 */
export function runningServer(dataDir: string): { pid: number; url: string | null } | null {
  const file = path.join(dataDir, LOCK_FILE);
  if (!existsSync(file)) return null;
  const probe = new SQLite(file);
  try {
    probe.pragma('busy_timeout = 0');
    if (tryLock(probe)) return null;
    const holder = readHolder(dataDir);
    return { pid: holder?.pid ?? 0, url: holder?.url ?? null };
  } finally {
    probe.close();
  }
}
