/**
 * The webhook delivery thread's program (started by webhook-worker.ts): claims, signs, sends and
 * records deliveries over a connection of its own to the server's file, so a burst of deliveries
 * never runs on the API's event loop. It asks the server only for what the server alone knows
 * (a test's clock, jitter or resolver; a write to a synced row).
 */
import { EventEmitter } from 'node:events';
import { parentPort, workerData } from 'node:worker_threads';
import { openWriterConnection } from '../db/writer-connection';
import { defaultJitter } from '../domain/retry-schedules';
import { type Clock, steadyClock } from '../lib/clock';
import type { HostLookup } from '../lib/webhook-target';
import { attachWithoutCapture } from '../sync/capture';
import { type DeliveryHost, startWebhookDelivery } from './webhook-delivery';
import {
  type CallName,
  type Calls,
  type FromThread,
  fromThreadError,
  type ThreadStart,
  type ToThread,
  toThreadError,
} from './webhook-thread-messages';

if (!parentPort) throw new Error('webhook-thread runs as a worker thread of the server');
const port = parentPort;
const start = workerData as ThreadStart;
const send = (message: FromThread) => port.postMessage(message);

let nextCall = 0;
const calls = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();

function call<N extends CallName>(name: N, args: Calls[N]['args']): Promise<Calls[N]['value']> {
  return new Promise((resolve, reject) => {
    const id = nextCall++;
    calls.set(id, { resolve: resolve as (value: unknown) => void, reject });
    send({ type: 'call', id, name, args });
  });
}

function machineTime(offsetMs: number): DeliveryHost['now'] {
  const clock: Clock = { now: () => new Date(Date.now() + offsetMs), monotonicMs: () => performance.now() };
  const waits = steadyClock(clock);
  return async () => ({ wall: clock.now(), steady: waits.now() });
}

async function serverTime(): ReturnType<DeliveryHost['now']> {
  const reading = await call('now', null);
  return { wall: new Date(reading.wall), steady: new Date(reading.steady) };
}

const askedLookup: HostLookup = (hostname, options, callback) => {
  call('lookup', { hostname, options: { ...options } }).then(
    (addresses) => callback(null, addresses),
    (error: NodeJS.ErrnoException) => callback(error, []),
  );
};

const connection = openWriterConnection(start.file, start.key, attachWithoutCapture);
const signals = new EventEmitter();
const connectivity = { online: start.online };
const runner = startWebhookDelivery(
  {
    db: connection.db,
    signals,
    connectivity,
    now: start.machineOffsetMs === null ? serverTime : machineTime(start.machineOffsetMs),
    jitter: start.askJitter ? () => call('jitter', null) : async () => defaultJitter(),
    ownPort: start.ownPort,
    lookup: start.askLookup ? askedLookup : undefined,
    disableFailing: async (endpointId, at) => {
      await call('disableFailing', { endpointId, at });
    },
    logError: (message, error) => send({ type: 'log', message, error: toThreadError(error) }),
  },
  start.options,
);

async function stop(): Promise<void> {
  await runner.stop();
  await connection.close();
}

function finish(id: number, work: Promise<void>): void {
  work.then(
    () => send({ type: 'done', id }),
    (error: unknown) => send({ type: 'done', id, error: toThreadError(error) }),
  );
}

port.on('message', (message: ToThread) => {
  switch (message.type) {
    case 'wake':
      signals.emit('outbox');
      return;
    case 'online':
      connectivity.online = message.online;
      signals.emit(message.online ? 'online' : 'offline');
      return;
    case 'runDue':
      finish(message.id, runner.runDue());
      return;
    case 'stop':
      finish(message.id, stop());
      return;
    case 'answer': {
      const waiting = calls.get(message.id);
      calls.delete(message.id);
      if (message.error) waiting?.reject(fromThreadError(message.error));
      else waiting?.resolve(message.value);
    }
  }
});
