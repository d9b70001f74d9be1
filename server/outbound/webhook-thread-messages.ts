import type { DatabaseKey } from '../db/cipher';
import type { DeliveryOptions } from './webhook-delivery';

/** What the delivery thread starts with (webhook-worker.ts passes it as workerData). */
export interface ThreadStart {
  file: string;
  key: DatabaseKey | null;
  options: DeliveryOptions;
  ownPort: number | null;
  online: boolean;
  /** The server clock's offset from the machine's, when it has a constant one; else the thread asks for each reading. */
  machineOffsetMs: number | null;
  /** Whether the server was given a jitter or a resolver of its own (tests): the thread then asks for each. */
  askJitter: boolean;
  askLookup: boolean;
}

/** The server to the thread. `wake`: deliveries may be due; `answer`: the reply to a thread's `call`. */
export type ToThread =
  | { type: 'wake' }
  | { type: 'online'; online: boolean }
  | { type: 'runDue'; id: number }
  | { type: 'stop'; id: number }
  | { type: 'answer'; id: number; value?: unknown; error?: ThreadError };

/** What the thread asks of the server, and what each answer holds. */
export interface Calls {
  /** Milliseconds since the epoch: the wall clock and the steady one (steadyClock). */
  now: { args: null; value: { wall: number; steady: number } };
  jitter: { args: null; value: number };
  lookup: { args: { hostname: string; options: object }; value: Array<{ address: string; family: number }> };
  disableFailing: { args: { endpointId: string; at: string }; value: null };
}

export type CallName = keyof Calls;

/** The thread to the server. `done`: a runDue or stop has finished; `log`: a failure for the server's log. */
export type FromThread =
  | { type: 'done'; id: number; error?: ThreadError }
  | { type: 'call'; id: number; name: CallName; args: unknown }
  | { type: 'log'; message: string; error: ThreadError };

/** An error as it crosses between threads (a structured clone loses an Error's class and code). */
export interface ThreadError {
  name: string;
  message: string;
  stack?: string;
  code?: string;
}

export function toThreadError(error: unknown): ThreadError {
  if (!(error instanceof Error)) return { name: 'Error', message: String(error) };
  const code = (error as NodeJS.ErrnoException).code;
  return { name: error.name, message: error.message, stack: error.stack, ...(code ? { code } : {}) };
}

export function fromThreadError(error: ThreadError): Error {
  return Object.assign(new Error(error.message), error);
}
