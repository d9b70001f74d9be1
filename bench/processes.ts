import path from 'node:path';
import { bundleOptions, serverExternals, writeBundles } from '../scripts/server-bundle.mjs';
import { isStale } from '../scripts/staleness.mjs';
import { type ChildHandle, startChild } from './child-ipc';
import type { BenchOperations, BenchServerOptions } from './server-child';

const root = path.resolve(import.meta.dirname, '..');
const outdir = path.join(root, 'dist/bench');

/**
 * The processes the bench measures. They run compiled as headless mode runs (esbuild with
 * scripts/build-server.mjs's options; the bench's entries only add the IPC calls and the clock),
 * each in a process of its own, so the load generator's CPU and garbage collection stay out of
 * what is measured.
 */
const ENTRIES = {
  server: 'bench/server-child.ts',
  floor: 'bench/floor-child.ts',
  // Not a process: the thread the server starts for webhook delivery, found beside its bundle.
  'webhook-thread': 'server/outbound/webhook-thread.ts',
} as const;

const SOURCES = [
  'server',
  'shared',
  'package.json',
  'scripts/server-bundle.mjs',
  ...['server-child.ts', 'floor-child.ts', 'child-ipc.ts', 'clock.ts', 'floor.ts', 'processes.ts'].map(
    (file) => `bench/${file}`,
  ),
].map((source) => path.join(root, source));

const bundle = (entry: keyof typeof ENTRIES) => path.join(outdir, `${entry}.cjs`);

/** server/serve.ts's own first step (keepHeapNearLive) sets the rest of scripts/serve.mjs's flags. */
const NODE_FLAGS = process.env.BENCH_CPU_PROF
  ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(process.env.BENCH_CPU_PROF)}`]
  : [];

/** Bundles every entry when any is missing or older than its sources (a fresh clone, a pull). */
export async function buildBenchProcessesIfStale(log: (line: string) => void): Promise<void> {
  const outputs = Object.keys(ENTRIES).map((entry) => bundle(entry as keyof typeof ENTRIES));
  if (!outputs.some((output) => isStale(output, SOURCES))) return;
  log('Building the bench processes (dist/bench)…');
  const { build } = await import('esbuild');
  const result = await build({
    ...bundleOptions,
    minifyWhitespace: true,
    minifySyntax: true,
    entryPoints: ENTRIES,
    outdir,
    external: serverExternals(),
    write: false,
  });
  writeBundles(result.outputFiles, outdir);
}

export type BenchServer = ChildHandle<BenchOperations>;

/** The real server on `options.dataDir`, port 0, in a process of its own. */
export function startBenchServer(options: BenchServerOptions): Promise<BenchServer> {
  return startChild<BenchOperations>('bench server', NODE_FLAGS, bundle('server'), JSON.stringify(options));
}

/** The bare floor (bench/floor.ts) on the same file, in a process of its own. */
export function startFloorProcess(
  dataDir: string,
  accountId: string,
): Promise<ChildHandle<Record<never, never>>> {
  return startChild('bare floor', NODE_FLAGS, bundle('floor'), JSON.stringify({ dataDir, accountId }));
}
