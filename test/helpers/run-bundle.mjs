// `node run-bundle.mjs <bundle.cjs> ...args`: runs a test process's bundle (process-bundles.ts), the
// bundle seeing `args` where its source expects them. No V8 code cache (scripts/code-cache.mjs): the
// processes of a run start side by side and would write one cache file at the same time.
import { createRequire } from 'node:module';

const [bundle] = process.argv.splice(2, 1);
createRequire(import.meta.url)(bundle);
