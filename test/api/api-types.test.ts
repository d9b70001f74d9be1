import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { bundledArgs } from '../helpers/process-bundles';

const repo = path.resolve(import.meta.dirname, '../..');

/**
 * Generated in a process of its own, as `npm run generate:api-types` does: the document's schema
 * names come from zod's registry, which is per process, and a test worker that has loaded the
 * shared schemas twice (files of other projects, a module reset) would name some of them otherwise.
 * The script runs from its bundle: through tsx it would transpile the whole server again first.
 */
it('the generated API types are what the server routes generate today', async () => {
  const { stdout } = await promisify(execFile)(process.execPath, bundledArgs('api-types', '--check'), {
    cwd: repo,
    timeout: 150_000,
  });
  const stale = JSON.parse(stdout.trim().split('\n').at(-1)!) as string[];
  expect(stale, 'stale: run `npm run generate:api-types` and commit the result').toEqual([]);
}, 180_000);
