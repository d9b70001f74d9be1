import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';

/**
 * Whole-file work on SQLite databases (snapshot, verify, re-key) runs on a worker thread with a
 * connection of its own: it takes seconds on a large business, and better-sqlite3 is synchronous,
 * so on the server's thread it would stall every request for that long. In WAL mode the worker's
 * reads see one consistent snapshot while the server keeps writing.
 */
export type FileTask =
  /** A consistent copy of `source` at `target`, encrypted like the source (SQLite's VACUUM INTO). */
  | { kind: 'snapshot'; source: string; target: string; keyPragmas: string[] }
  /** Opens the file, runs integrity_check and counts the rows of every table. */
  | { kind: 'verify'; file: string; keyPragmas: string[] }
  /** Encrypts a plain file (not in use by anyone) in place with the given pragmas. */
  | { kind: 'rekey'; file: string; rekeyPragmas: string[] };

export interface Verification {
  integrity: string;
  tables: Record<string, number>;
}

interface Reply {
  ok: boolean;
  value?: Verification | null;
  error?: { message: string; code?: string };
}

/**
 * The worker's whole program. It runs as source text (a worker built from a string works the same
 * from TypeScript sources, tests and the bundled desktop app), so it uses nothing outside its body.
 */
function workerProgram() {
  const { workerData, parentPort } = require('node:worker_threads');
  const SQLite = require(workerData.driver);
  const task = workerData.task;
  const open = (file: string, pragmas: string[]) => {
    const db = new SQLite(file, { fileMustExist: true });
    for (const pragma of pragmas) db.pragma(pragma);
    return db;
  };
  let db: { close(): void } | undefined;
  try {
    let value = null;
    if (task.kind === 'snapshot') {
      const source = open(task.source, task.keyPragmas);
      db = source;
      source.pragma('busy_timeout = 5000');
      source.prepare('VACUUM INTO ?').run(task.target);
    } else if (task.kind === 'verify') {
      const file = open(task.file, task.keyPragmas);
      db = file;
      const integrity = file.prepare('pragma integrity_check').pluck().all().join('; ');
      const names = file
        .prepare(
          "select name from sqlite_schema where type = 'table' and name not like 'sqlite_%' order by name",
        )
        .pluck()
        .all();
      const tables: Record<string, number> = {};
      for (const name of names)
        tables[name] = file
          .prepare(`select count(*) from "${name.replaceAll('"', '""')}"`)
          .pluck()
          .get();
      value = { integrity, tables };
    } else {
      const file = open(task.file, []);
      db = file;
      file.pragma('journal_mode = DELETE');
      for (const pragma of task.rekeyPragmas) file.pragma(pragma);
    }
    db?.close();
    parentPort.postMessage({ ok: true, value });
  } catch (error) {
    try {
      db?.close();
    } catch {}
    const failure = error as { message?: string; code?: string };
    parentPort.postMessage({ ok: false, error: { message: String(failure.message), code: failure.code } });
  }
}

const driver = createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers');
// Bundlers that keep function names (tsx, vitest) wrap them in a `__name` helper the worker lacks.
const programSource = `const __name = (target) => target;\n(${workerProgram.toString()})()`;

export class FileTaskError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
  ) {
    super(message);
  }
}

export function runFileTask(task: Extract<FileTask, { kind: 'verify' }>): Promise<Verification>;
export function runFileTask(task: FileTask): Promise<unknown>;
export function runFileTask(task: FileTask): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(programSource, { eval: true, workerData: { driver, task } });
    let settled = false;
    worker.once('message', (reply: Reply) => {
      settled = true;
      if (reply.ok) resolve(reply.value);
      else reject(new FileTaskError(reply.error?.message ?? 'failed', reply.error?.code));
    });
    worker.once('error', (error) => {
      settled = true;
      reject(error);
    });
    worker.once('exit', (code) => {
      if (!settled) reject(new Error(`The database worker stopped (exit code ${code})`));
    });
  });
}
