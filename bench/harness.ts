import autocannon from 'autocannon';
import { benchClock as clockFrom } from './clock';
import { DATA_NOW } from './generate';
import type { BenchServer } from './processes';

/**
 * What every bench case gets: the real server on the generated data, its account, and the bare
 * floor, each in a process of its own (bench/processes.ts).
 */
export interface CaseContext {
  server: BenchServer;
  account: { id: string; portalKey: string; counts: Record<string, number> };
  /** The generated database as cached: cases that need a server of their own copy it, never write it. */
  dataFile: string;
  /** A plain Fastify instance running the same prepared SQL with no auth, validation or envelope. */
  bareFloor: { url: string };
  /** Seconds each load case runs. */
  seconds: number;
  log(line: string): void;
}

/** The server's clock during the bench (bench/clock.ts), from the data set's "now". */
export const benchClock = () => clockFrom(DATA_NOW);

export interface Row {
  case: string;
  figure: string;
  /** Human-readable target, e.g. "≥ 0.5"; empty for figures shown for context. */
  target: string;
  /** true = met, false = missed, null = no target. */
  pass: boolean | null;
}

/** A bench case: a file in bench/cases/ whose default export returns rows for the table. */
export type BenchCase = (ctx: CaseContext) => Promise<Row[]>;

export interface LoadOptions {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  /** A fresh body per request (e.g. unique e-mails); a constant body may be given as a string. */
  body?: string | (() => string);
  connections?: number;
  seconds: number;
}

export interface LoadResult {
  requestsPerSecond: number;
  /** Latencies in milliseconds. */
  mean: number;
  p50: number;
  p99: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** Drives load with autocannon, in this process, against 127.0.0.1. */
export async function load(options: LoadOptions): Promise<LoadResult> {
  const { body } = options;
  const result = await autocannon({
    url: options.url,
    method: options.method ?? 'GET',
    headers: { ...(body !== undefined && { 'content-type': 'application/json' }), ...options.headers },
    connections: options.connections ?? 10,
    duration: options.seconds,
    ...(typeof body === 'string' && { body }),
    ...(typeof body === 'function' && {
      requests: [{ setupRequest: (request: autocannon.Request) => ({ ...request, body: body() }) }],
    }),
  });
  return {
    requestsPerSecond: result.requests.average,
    mean: result.latency.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    non2xx: result.non2xx,
    errors: result.errors,
  };
}

/** Refuses to report figures from a run whose requests failed: a fast 4xx is not a result. */
export function assertHealthy(name: string, result: LoadResult): void {
  if (result.non2xx > 0 || result.errors > 0 || result.requests === 0) {
    throw new Error(
      `${name}: ${result.non2xx} non-2xx answers and ${result.errors} errors in ${result.requests} requests`,
    );
  }
}

export const fmt = (n: number, digits = 1) => n.toFixed(digits);
