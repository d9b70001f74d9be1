import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, expect, it } from 'vitest';

/**
 * `npm run serve` runs the server bundle through scripts/code-cache.mjs: the first start writes a
 * V8 code cache beside the bundle, later ones use it, and a changed bundle never runs with the old
 * one (V8 itself checks only the source's length).
 */

const loader = pathToFileURL(path.resolve(import.meta.dirname, '../../scripts/code-cache.mjs')).href;
let dir: string;

afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** Runs the bundle in a fresh Node through the loader; prints what it exported and whether V8 took the cache. */
function start(bundle: string): { answer: string; caches: string[] } {
  const script = `import { requireWithCodeCache } from ${JSON.stringify(loader)};
    console.log(requireWithCodeCache(${JSON.stringify(bundle)}).answer());`;
  const answer = execFileSync(process.execPath, ['--input-type=module', '-e', script], {
    encoding: 'utf8',
  }).trim();
  return { answer, caches: readdirSync(dir).filter((f) => f.endsWith('.v8cache')) };
}

it('writes the cache at the first exit, runs with it after, and never with the cache of another bundle', () => {
  dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-code-cache-'));
  const bundle = path.join(dir, 'serve.cjs');
  const source = (word: string) =>
    `const path = require('node:path');
     exports.answer = () => [${JSON.stringify(word)}, path.basename(__filename), typeof module.exports].join(' ');`;
  writeFileSync(bundle, source('alpha'));
  const first = start(bundle);
  expect(first.answer).toBe('alpha serve.cjs object');
  expect(first.caches).toHaveLength(1);
  const written = statSync(path.join(dir, first.caches[0]!)).mtimeMs;

  const second = start(bundle);
  expect(second.answer).toBe('alpha serve.cjs object');
  expect(second.caches).toEqual(first.caches);
  // Rewritten only when V8 refuses it: left alone, it was taken.
  expect(statSync(path.join(dir, first.caches[0]!)).mtimeMs).toBe(written);

  // Same length, other code: a cache keyed by length alone would run the old function.
  writeFileSync(bundle, source('omega'));
  const changed = start(bundle);
  expect(changed.answer).toBe('omega serve.cjs object');
  expect(changed.caches).toHaveLength(1);
  expect(changed.caches).not.toEqual(first.caches);
});
