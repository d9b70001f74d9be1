import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import type SQLite from 'better-sqlite3-multiple-ciphers';
import { type DatabaseKey, keyPragmas } from './cipher';
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
 */
export function quickCheck(sqlite: SQLite.Database, dataDir: string): void {
  const found = problems(sqlite.pragma('quick_check(5)') as unknown[], 'quick_check');
  if (found.length) throw new DataFolderError(damagedMessage(dataDir, summary(found)));
}

/**
 * The full integrity check takes seconds on a large file and better-sqlite3 runs it synchronously,
 * so it runs in a worker thread over its own read-only connection. The code is inline because the
 * desktop build bundles the server into one file; better-sqlite3 stays in node_modules there.
 */
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
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
  /** Resolves once the check ended: the problems found (empty when the file is sound). */
  done: Promise<string[]>;
  stop(): Promise<void>;
}

/** `key`: the database's encryption key, when it has one (the worker opens the file itself). */
export function startIntegrityCheck(
  file: string,
  health: StorageHealth,
  key: DatabaseKey | null = null,
): BackgroundCheck {
  const driver = createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers');
  const worker = new Worker(WORKER_SOURCE, {
    eval: true,
    workerData: { driver, file, keyPragmas: keyPragmas(key) },
  });
  worker.unref();
  const done = new Promise<string[]>((resolve) => {
    worker.once('message', (rows: unknown[]) => resolve(problems(rows, 'integrity_check')));
    worker.once('error', (error) => {
      if (/SQLITE_(CORRUPT|NOTADB)|malformed/.test(String(error))) return resolve([String(error)]);
      console.error('The background integrity check could not run', error);
      resolve([]);
    });
    worker.once('exit', () => resolve([]));
  }).then((found) => {
    if (found.length) health.markDamaged(summary(found));
    return found;
  });
  return {
    done,
    stop: async () => {
      await worker.terminate();
    },
  };
}
