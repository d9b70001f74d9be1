#!/usr/bin/env node
/**
 * Builds the portal UI with vite when dist/renderer is missing or older than its sources, so
 * `npm run serve` on a fresh clone (or after a pull) serves a current UI without a manual build step.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { isStale } from './staleness.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const builtIndex = path.join(root, 'dist/renderer/index.html');
const sources = [path.join(root, 'renderer'), path.join(root, 'shared'), path.join(root, 'vite.config.ts')];

export async function buildRendererIfMissing({ quiet = false } = {}) {
  if (!isStale(builtIndex, sources)) return false;
  if (!quiet) console.log('Building the portal UI (dist/renderer)…');
  const { build } = await import('vite');
  await build({ configFile: path.join(root, 'vite.config.ts'), logLevel: quiet ? 'error' : 'warn' });
  return true;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildRendererIfMissing().catch((error) => {
    console.error(error);
    process.exit(1);
  });
}
