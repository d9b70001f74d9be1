import path from 'node:path';
import { bundleOptions, serverExternals, writeBundles } from '../../scripts/server-bundle.mjs';
import { isStale } from '../../scripts/staleness.mjs';

const root = path.resolve(import.meta.dirname, '../..');
const outdir = path.join(root, 'dist/test-processes');
const launcher = path.join(import.meta.dirname, 'run-bundle.mjs');

/**
 * What tests start as processes of their own. They run bundled, as `npm run serve` and the desktop
 * app do: a start through tsx transpiles the whole server again (about 3 CPU-seconds here, against
 * half a second for the bundle), and a run starts about a hundred.
 */
const ENTRIES = {
  cli: 'server/cli.ts',
  serve: 'server/serve.ts',
  hub: 'server/hub.ts',
  'utility-server': 'electron/utility-server.ts',
  'crash-child': 'test/outbound/crash-child.ts',
  // `npm run generate:api-types -- --check`, for test/api/api-types.test.ts.
  'api-types': 'scripts/generate-api-types.ts',
  // Not a process: the thread the servers above start for webhook delivery, found beside them.
  'webhook-thread': 'server/outbound/webhook-thread.ts',
} as const;

export type BundledEntry = keyof typeof ENTRIES;

const SOURCES = [
  'server',
  'shared',
  'electron',
  'test/outbound/crash-child.ts',
  'scripts/api-types.ts',
  'scripts/generate-api-types.ts',
  'package.json',
  'scripts/server-bundle.mjs',
  'test/helpers/process-bundles.ts',
].map((source) => path.join(root, source));

/** The bundle of `entry` (built by the global set-up). */
export function bundlePath(entry: BundledEntry): string {
  return path.join(outdir, `${entry}.cjs`);
}

/** Arguments for `process.execPath` that run `entry` from its bundle, with its command line `args`. */
export function bundledArgs(entry: BundledEntry, ...args: string[]): string[] {
  return [launcher, bundlePath(entry), ...args];
}

/**
 * Bundles every entry when any is missing or older than the sources. Files are written under
 * temporary names and renamed, so a process starting meanwhile reads a whole bundle.
 */
export async function buildProcessBundlesIfStale(): Promise<void> {
  const outputs = Object.keys(ENTRIES).map((entry) => bundlePath(entry as BundledEntry));
  if (!outputs.some((output) => isStale(output, SOURCES))) return;
  const { build } = await import('esbuild');
  const result = await build({
    ...bundleOptions,
    sourcemap: false,
    entryPoints: ENTRIES,
    outdir,
    // TypeScript (under openapi-typescript) is loaded from node_modules: carried, it would double the bundle.
    external: ['electron', 'typescript', ...serverExternals()],
    write: false,
  });
  writeBundles(result.outputFiles, outdir);
}

/** Vitest global set-up: the bundles are built once, before any test file starts one. */
export default async function setup(): Promise<void> {
  await buildProcessBundlesIfStale();
}
