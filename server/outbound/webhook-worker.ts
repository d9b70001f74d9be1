import { lookup as dnsLookup } from 'node:dns';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { AppContext } from '../context';
import type { DatabaseKey } from '../db/cipher';
import { runCompiledOnce } from '../db/compiled-once';
import { defaultJitter, type Jitter } from '../domain/retry-schedules';
import { disableFailingEndpoints } from '../domain/webhook-failures';
import { isoNow, steadyClock } from '../lib/clock';
import type { DeliveryOptions } from './webhook-delivery';
import {
  type Calls,
  type FromThread,
  fromThreadError,
  type ThreadStart,
  type ToThread,
  toThreadError,
} from './webhook-thread-messages';

export interface WebhookWorkerOptions extends DeliveryOptions {
  /** Tests pin it; the thread then asks the server for each factor. */
  jitter?: Jitter;
  /**
   * A bundle of webhook-thread.ts to run from sources instead of the TypeScript file: tests pass
   * the one built for their processes (through tsx, a thread takes a CPU-second to start).
   */
  threadBundle?: string;
}

/** The webhook delivery thread as the server (shutdown, restore, tests) sees it. */
export interface WebhookWorker {
  /** Sends everything due now (by ctx.clock) and resolves once every outcome is recorded. */
  runDue(): Promise<void>;
  /** Stops claiming, aborts deliveries in flight (they give their claims back), closes the thread's connection. */
  stop(): Promise<void>;
}

/**
 * The thread's program. Bundled (dist/server, dist/electron, dist/test-processes), it is its own
 * bundle beside this one. From sources (tsx, vitest: development only), the TypeScript file through
 * tsx's require hook, which, unlike its loader, a thread can install for itself.
 */
function threadProgram(bundle: string | undefined): { filename: string; eval: boolean } {
  if (typeof __filename === 'string' && __filename.endsWith('.cjs'))
    return { filename: path.join(path.dirname(__filename), 'webhook-thread.cjs'), eval: false };
  if (bundle) return { filename: bundle, eval: false };
  const hook = createRequire(import.meta.url).resolve('tsx/cjs/api');
  const program = fileURLToPath(new URL('./webhook-thread.ts', import.meta.url));
  return {
    filename: `require(${JSON.stringify(hook)}).register();\nrequire(${JSON.stringify(program)});`,
    eval: true,
  };
}

/**
 * Starts webhook delivery on a thread of its own (webhook-thread.ts). This thread only passes it
 * the outbox's wake-ups and connectivity, and answers what the thread cannot know by itself.
 */
export function startWebhookWorker(
  ctx: AppContext,
  database: { file: string; key: DatabaseKey | null },
  options: WebhookWorkerOptions = {},
): WebhookWorker {
  const { jitter, threadBundle, ...deliveryOptions } = options;
  const machineOffsetMs = ctx.clock.machineOffsetMs ?? null;
  // Read here for the thread when the clock is not the machine's: one steady clock for all its waits.
  const waits = steadyClock(ctx.clock);
  const logError = (message: string, error: unknown) => console.error(message, error);
  // A stop may have left an endpoint at the failure bound without disabling it.
  void disableFailingEndpoints(ctx.db, isoNow(ctx.clock)).catch((error: unknown) =>
    logError('webhooks: disabling failing endpoints failed', error),
  );

  const answers: { [N in keyof Calls]: (args: Calls[N]['args']) => Promise<Calls[N]['value']> } = {
    now: async () => ({ wall: ctx.clock.now().getTime(), steady: waits.now().getTime() }),
    jitter: async () => (jitter ?? defaultJitter)(),
    lookup: ({ hostname, options: lookupOptions }) =>
      new Promise((resolve, reject) => {
        const lookup = ctx.hostLookup ?? dnsLookup;
        lookup(hostname, { ...lookupOptions, all: true }, (error, addresses) =>
          error ? reject(error) : resolve(addresses),
        );
      }),
    disableFailing: async ({ endpointId, at }) => {
      await disableFailingEndpoints(ctx.db, at, endpointId);
      return null;
    },
  };

  let nextId = 0;
  const pending = new Map<number, { resolve(): void; reject(error: Error): void }>();
  let thread: Worker | undefined;
  let stopping: Promise<void> | undefined;

  function started(): Worker {
    if (thread) return thread;
    const program = threadProgram(threadBundle);
    const start: ThreadStart = {
      file: database.file,
      key: database.key,
      options: deliveryOptions,
      ownPort: ctx.listening.port,
      online: ctx.connectivity.online,
      machineOffsetMs,
      askJitter: jitter !== undefined,
      askLookup: ctx.hostLookup !== undefined,
    };
    const worker = new Worker(program.filename, { eval: program.eval, workerData: start });
    // Idle, it must not keep a process alive; answering runDue or stop, it must (see request()).
    worker.unref();
    worker.on('message', (message: FromThread) => {
      if (message.type === 'log') logError(message.message, fromThreadError(message.error));
      else if (message.type === 'done') {
        const waiter = pending.get(message.id);
        pending.delete(message.id);
        if (pending.size === 0) worker.unref();
        if (message.error) waiter?.reject(fromThreadError(message.error));
        else waiter?.resolve();
      } else answer(worker, message);
    });
    worker.on('error', (error) => logError('webhooks: the delivery thread failed', error));
    worker.on('exit', (code) => {
      if (thread === worker) thread = undefined;
      // Its claims are taken back by the next thread, started when a wake-up finds them.
      if (!stopping) logError('webhooks: the delivery thread stopped', new Error(`exit code ${code}`));
      for (const waiter of pending.values()) waiter.reject(new Error('The webhook delivery thread stopped'));
      pending.clear();
    });
    thread = worker;
    return worker;
  }

  function answer(worker: Worker, message: Extract<FromThread, { type: 'call' }>): void {
    const handler = answers[message.name] as (args: unknown) => Promise<unknown>;
    handler(message.args).then(
      (value) => worker.postMessage({ type: 'answer', id: message.id, value } satisfies ToThread),
      (error: unknown) =>
        worker.postMessage({
          type: 'answer',
          id: message.id,
          error: toThreadError(error),
        } satisfies ToThread),
    );
  }

  function request(type: 'runDue' | 'stop'): Promise<void> {
    const worker = started();
    return new Promise((resolve, reject) => {
      const id = nextId++;
      worker.ref();
      pending.set(id, { resolve, reject });
      worker.postMessage({ type, id } satisfies ToThread);
    });
  }

  // Until something waits to be sent no thread runs: it would hold a heap of its own (~20 MB) for
  // nothing. Without one, a wake-up asks the due index instead (one indexed read).
  let looking: Promise<void> | undefined;
  let lookAgain = false;
  const anyUndelivered = async () =>
    (
      await runCompiledOnce(ctx.db, 'webhook deliveries undelivered', {}, () =>
        ctx.db
          .selectFrom('webhook_deliveries')
          .select('id')
          .where('status', 'in', ['pending', 'sending'])
          .limit(1),
      )
    ).length > 0;
  const look = () => {
    lookAgain = false;
    looking = anyUndelivered()
      .then(
        (any) => {
          if (any && !stopping) started();
        },
        (error: unknown) => logError('webhooks: reading the outbox failed', error),
      )
      .finally(() => {
        looking = undefined;
        // A write that committed while this read ran may have queued a delivery it did not see.
        if (lookAgain && !thread && !stopping) look();
      });
  };
  const wake = () => {
    if (stopping) return;
    if (thread) thread.postMessage({ type: 'wake' } satisfies ToThread);
    else if (looking) lookAgain = true;
    else look();
  };
  const online = () => thread?.postMessage({ type: 'online', online: true } satisfies ToThread);
  const offline = () => thread?.postMessage({ type: 'online', online: false } satisfies ToThread);
  ctx.signals.on('outbox', wake);
  ctx.signals.on('online', online);
  ctx.signals.on('offline', offline);
  wake();

  return {
    // Stopped, nothing is sent any more: there is nothing left to run.
    runDue: () => (stopping ? Promise.resolve() : request('runDue')),
    stop: () => {
      stopping ??= (async () => {
        ctx.signals.off('outbox', wake);
        ctx.signals.off('online', online);
        ctx.signals.off('offline', offline);
        const worker = thread;
        if (!worker) return;
        // A thread that failed meanwhile left its claims for the next start to take back.
        await request('stop').catch((error: unknown) =>
          logError('webhooks: stopping delivery failed', error),
        );
        // Its claims are handed back and its connection closed: nothing it still holds is worth waiting for.
        await worker.terminate();
      })();
      return stopping;
    },
  };
}
