#!/usr/bin/env node
/**
 * Bundles headless mode (server/serve.ts) into dist/server/serve.cjs, so `npm run serve` starts compiled
 * JavaScript instead of transpiling the server on every start. `npm run serve` calls this and builds only
 * when the bundle is missing or older than its sources. The command line goes into dist/server/cli.cjs
 * beside it, for the bench's first sync (a device joins from compiled code, as the desktop app runs it).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './staleness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const serverBundle = path.join(root, 'dist/server/serve.cjs');
// Webhook delivery's thread (server/outbound/webhook-worker.ts finds it beside the server's bundle).
const threadBundle = path.join(root, 'dist/server/webhook-thread.cjs');
const cliBundle = path.join(root, 'dist/server/cli.cjs');
const sources = ['server', 'shared', 'package.json', 'scripts/server-bundle.mjs'].map((source) =>
  path.join(root, source),
);

export async function buildServer() {
  const { build } = await import('esbuild');
  const { bundleOptions, serverExternals } = await import('./server-bundle.mjs');
  await build({
    ...bundleOptions,
    // Every start reads, hashes and loads the whole bundle: without comments and whitespace it is
    // 30 % smaller and all ASCII (comments kept verbatim were not), which scripts/code-cache.mjs reads
    // as one byte a character. Names stay, so stack traces still say which function; the linked
    // source map has the rest, and the packages' licences go to serve.cjs.LEGAL.txt.
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'linked',
    entryPoints: {
      serve: 'server/serve.ts',
      'webhook-thread': 'server/outbound/webhook-thread.ts',
      cli: 'server/cli.ts',
    },
    outdir: path.dirname(serverBundle),
    external: serverExternals(),
  });
}

export async function buildServerIfStale({ quiet = false } = {}) {
  if (![serverBundle, threadBundle, cliBundle].some((bundle) => isStale(bundle, sources))) return false;
  if (!quiet) console.log('Building the server (dist/server)…');
  await buildServer();
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildServer().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
