import { type ChildProcess, spawn } from 'node:child_process';

/**
 * The bench's processes (bench/server-child.ts, bench/floor-child.ts) answer calls from the bench
 * over Node's IPC channel: `{ id, op, args }` in, `{ id, result }` or `{ id, error }` out. Their
 * first message says they listen.
 */
export type ChildMessage =
  | { ready: { url: string; startMs: number } }
  | { id: number; result?: unknown; error?: string };

type Operations = Record<string, (...args: never[]) => Promise<unknown>>;

/** In the child: answers calls with `operations`; `close` ends the process once `stop` has. */
export function serveRequests(operations: Operations, stop: () => Promise<void>): void {
  process.on('message', (message: { id: number; op: string; args: unknown[] }) => {
    const { id, op, args } = message;
    const run =
      op === 'close'
        ? stop().then(() => {
            process.send!({ id, result: null }, () => process.exit(0));
            return undefined;
          })
        : (operations[op] as (...a: unknown[]) => Promise<unknown>)(...args);
    run.then(
      (result) => {
        if (op !== 'close') process.send!({ id, result: result ?? null });
      },
      (error: Error) => process.send!({ id, error: error.stack ?? error.message }),
    );
  });
  // The bench ended without closing this process (a crash, ^C): nothing should outlive it. Killed
  // rather than exited: exit waits for a worker thread inside a long SQLite call (a backup's copy).
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}

export interface ChildHandle<O extends Operations> {
  url: string;
  /** How long the child's own start took, from its first line to listening (no process start). */
  startMs: number;
  pid: number;
  call<K extends keyof O & string>(op: K, ...args: Parameters<O[K]>): Promise<Awaited<ReturnType<O[K]>>>;
  /** Stops the child the way its own close does, and waits for the process to end. */
  close(): Promise<void>;
}

/** Starts `node [flags] bundle argument` and resolves once it says it listens. */
export function startChild<O extends Operations>(
  label: string,
  nodeArgs: string[],
  bundle: string,
  argument: string,
): Promise<ChildHandle<O>> {
  const child: ChildProcess = spawn(process.execPath, [...nodeArgs, bundle, argument], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  let nextId = 0;
  const pending = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then((code) => {
    for (const { reject } of pending.values()) reject(new Error(`${label} exited (${code}) during a call`));
    pending.clear();
  });
  return new Promise((resolve, reject) => {
    void exited.then((code) => reject(new Error(`${label} exited (${code}) before it listened`)));
    child.on('message', (message: ChildMessage) => {
      if ('ready' in message) {
        resolve({
          ...message.ready,
          pid: child.pid!,
          call: (op, ...args) =>
            new Promise((done, fail) => {
              const id = nextId++;
              pending.set(id, { resolve: done as (value: unknown) => void, reject: fail });
              child.send({ id, op, args });
            }),
          close: async () => {
            if (child.exitCode === null) {
              const id = nextId++;
              const closed = new Promise((done, fail) => pending.set(id, { resolve: done, reject: fail }));
              child.send({ id, op: 'close', args: [] });
              await closed.catch(() => undefined);
            }
            await exited;
          },
        });
        return;
      }
      const call = pending.get(message.id);
      if (!call) return;
      pending.delete(message.id);
      if (message.error !== undefined) call.reject(new Error(`${label}: ${message.error}`));
      else call.resolve(message.result);
    });
  });
}
