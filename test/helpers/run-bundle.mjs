// `node run-bundle.mjs <bundle.cjs> ...args`: runs a test process's bundle (process-bundles.ts) with
// the code cache `npm run serve` uses, the bundle seeing `args` where its source expects them.
import { requireWithCodeCache } from '../../scripts/code-cache.mjs';

const [bundle] = process.argv.splice(2, 1);
requireWithCodeCache(bundle);
