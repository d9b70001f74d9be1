import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3-multiple-ciphers';
import { type DatabaseKey, fileKeyPragmas } from './cipher';
import { DataFolderError, damagedMessage } from './storage-errors';

/** Whether the data file is fit to serve; once damage is seen the server refuses every API request. */
export class StorageHealth {
  damage: string | null = null;

  constructor(readonly dataDir: string) {}

  markDamaged(detail: string): void {
    this.damage ??= damagedMessage(this.dataDir, detail);
  }
}

/** SQLite reports one problem a line, sometimes several lines to a row, under a heading per schema. */
function problems(rows: unknown[], column: string): string[] {
  return rows
    .flatMap((row) => String((row as Record<string, unknown>)[column]).split('\n'))
    .filter((line) => line !== 'ok' && !line.startsWith('***'));
}

function summary(found: string[]): string {
  return found.length === 1 ? found[0]! : `${found[0]}, and more`;
}

/**
 * SQLite's quick check reads every page but skips matching indexes to rows, so it catches torn
 * and overwritten pages before the first request trips over them, at a fraction of a full check.
 * Its cost grows with the file: what opens the file without a background check behind it runs it.
 */
export function quickCheck(sqlite: SQLite.Database, dataDir: string): void {
  const found = problems(sqlite.pragma('quick_check(5)') as unknown[], 'quick_check');
  if (found.length) throw new DataFolderError(damagedMessage(dataDir, summary(found)));
}

/**
 * What the server checks before its first answer, at a cost that does not grow with the file: the
 * header and page count (SQLite refuses a file shorter than its header says), every schema entry
 * (parsed by the first statement), and the first and last leaf of every table, where the newest
 * rows (those a torn write would hit) live. A page elsewhere is the full check's to find, in the
 * background; until then a request that reads it is refused as damaged (see http/errors.ts).
 */
export function startupCheck(sqlite: SQLite.Database): void {
  const tables = sqlite
    .prepare("SELECT name, wr FROM pragma_table_list WHERE schema = 'main' AND type = 'table'")
    .all() as Array<{ name: string; wr: number }>;
  for (const { name, wr } of tables) {
    const quoted = `"${name.replaceAll('"', '""')}"`;
    sqlite.prepare(`SELECT 1 FROM ${quoted} LIMIT 1`).get();
    if (!wr) sqlite.prepare(`SELECT 1 FROM ${quoted} ORDER BY rowid DESC LIMIT 1`).get();
  }
}

/**
 * The full integrity check takes seconds on a large file and better-sqlite3 runs it synchronously,
 * so it runs in a worker thread over its own read-only connection. The code is inline because the
 * desktop build bundles the server into one file; better-sqlite3 stays in node_modules there.
 * On Linux a thread has a priority of its own, and the worker takes the lowest, so requests (and
 * whatever else the owner runs) go first; elsewhere setpriority would slow the whole process.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
if (process.platform === 'linux') require('node:os').setPriority(19);
const Database = require(workerData.driver);
const db = new Database(workerData.file, { readonly: true, fileMustExist: true });
for (const pragma of workerData.keyPragmas) db.pragma(pragma);
try {
  parentPort.postMessage(db.pragma('integrity_check(5)'));
} finally {
  db.close();
}
`;

export interface BackgroundCheck {
  /** Resolves once the check ended: the problems found (empty when the file is sound or it was stopped). */
  done: Promise<string[]>;
  stop(): Promise<void>;
}

/** The owner's first minutes of work after a start go before the full check's minutes of reading. */
export const INTEGRITY_CHECK_DELAY_MS = 120_000;

function runCheck(file: string, key: DatabaseKey | null): { worker: Worker; found: Promise<string[]> } {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, keyPragmas: fileKeyPragmas(file, key) },
  });
  worker.unref();
  const found = new Promise<string[]>((resolve) => {
    worker.once('message', (rows: unknown[]) => resolve(problems(rows, 'integrity_check')));
    worker.once('error', (error) => {
      if (/SQLITE_(CORRUPT|NOTADB)|malformed/.test(String(error))) return resolve([String(error)]);
      console.error('The background integrity check could not run', error);
      resolve([]);
    });
    worker.once('exit', () => resolve([]));
  });
  return { worker, found };
}

/**
 * Starts the full check `delayMs` from now. `key`: the database's encryption key, when it has one
 * (the worker opens the file itself).
 */
export function startIntegrityCheck(
  file: string,
  health: StorageHealth,
  key: DatabaseKey | null = null,
  delayMs = INTEGRITY_CHECK_DELAY_MS,
): BackgroundCheck {
  let running: ReturnType<typeof runCheck> | undefined;
  let stopped: () => void = () => undefined;
  const done = new Promise<string[]>((resolve) => {
    const timer = setTimeout(() => {
      running = runCheck(file, key);
      void running.found.then(resolve);
    }, delayMs);
    timer.unref();
    stopped = () => {
      clearTimeout(timer);
      resolve([]);
    };
  }).then((found) => {
    if (found.length) health.markDamaged(summary(found));
    return found;
  });
  return {
    done,
    stop: async () => {
      stopped();
      await running?.worker.terminate();
    },
  };
}
