import { createRequire } from 'node:module';
import { Worker } from 'node:worker_threads';
import { type DatabaseKey, fileKeyPragmas } from './cipher';

/**
 * Long reads (reports over a quarter of a large business) run on a worker thread with a read-only
 * connection of its own: better-sqlite3 is synchronous, so on the server's connection such a read
 * would hold every other request — writes included — for its whole length. In WAL mode the
 * worker's statements, run in one read transaction, see one consistent snapshot while the server
 * keeps writing.
 */

export interface ReadStatement {
  sql: string;
  parameters: readonly unknown[];
}

/** Runs statements in one read transaction and answers each one's rows, in order. */
export type ReadSnapshot = (statements: ReadStatement[]) => Promise<unknown[][]>;

interface Reply {
  id: number;
  rows?: unknown[][];
  error?: { message: string; code?: string };
}

/**
 * The worker's whole program. It runs as source text (as server/db/file-worker.ts explains), so
 * it uses nothing outside its body.
 */
function workerProgram() {
  const { workerData, parentPort } = require('node:worker_threads');
  const SQLite = require(workerData.driver);
  const db = new SQLite(workerData.file, { readonly: true, fileMustExist: true });
  for (const pragma of workerData.keyPragmas) db.pragma(pragma);
  db.pragma('busy_timeout = 5000');
  const statements = new Map();
  const prepared = (text: string) => {
    let statement = statements.get(text);
    if (!statement) {
      statement = db.prepare(text);
      statements.set(text, statement);
    }
    return statement;
  };
  parentPort.on(
    'message',
    (request: { id: number; statements: Array<{ sql: string; parameters: unknown[] }> }) => {
      try {
        db.exec('BEGIN');
        try {
          const rows = request.statements.map((s) => prepared(s.sql).all(...s.parameters));
          parentPort.postMessage({ id: request.id, rows });
        } finally {
          db.exec('COMMIT');
        }
      } catch (error) {
        const failure = error as { message?: string; code?: string };
        parentPort.postMessage({
          id: request.id,
          error: { message: String(failure.message), code: failure.code },
        });
      }
    },
  );
}

const driver = createRequire(import.meta.url).resolve('better-sqlite3-multiple-ciphers');
const programSource = `const __name = (target) => target;\n(${workerProgram.toString()})()`;

/** One worker for the server's lifetime, started at the first read; stop it before the file is swapped. */
export class ReadWorker {
  private worker: Worker | undefined;
  private nextId = 0;
  private readonly waiting = new Map<
    number,
    { resolve(rows: unknown[][]): void; reject(error: Error): void }
  >();

  constructor(
    private readonly file: string,
    private readonly key: DatabaseKey | null,
  ) {}

  readonly read: ReadSnapshot = (statements) =>
    new Promise((resolve, reject) => {
      const id = this.nextId++;
      const worker = this.started();
      // Idle between reports it must not keep a CLI or a test process alive; busy, it must.
      if (this.waiting.size === 0) worker.ref();
      this.waiting.set(id, { resolve, reject });
      worker.postMessage({
        id,
        statements: statements.map((s) => ({ sql: s.sql, parameters: [...s.parameters] })),
      });
    });

  async stop(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
  }

  private started(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(programSource, {
      eval: true,
      // Asked at each start: a restore may have swapped in a file of the other cipher.
      workerData: { driver, file: this.file, keyPragmas: fileKeyPragmas(this.file, this.key) },
    });
    worker.on('message', (reply: Reply) => {
      const waiter = this.waiting.get(reply.id);
      this.waiting.delete(reply.id);
      if (this.waiting.size === 0) worker.unref();
      if (reply.rows) waiter?.resolve(reply.rows);
      else
        waiter?.reject(
          Object.assign(new Error(reply.error?.message ?? 'read failed'), { code: reply.error?.code }),
        );
    });
    const fail = (error: Error) => {
      if (this.worker === worker) this.worker = undefined;
      for (const waiter of this.waiting.values()) waiter.reject(error);
      this.waiting.clear();
    };
    worker.on('error', fail);
    worker.on('exit', (code) => fail(new Error(`The read worker stopped (exit code ${code})`)));
    this.worker = worker;
    return worker;
  }
}
