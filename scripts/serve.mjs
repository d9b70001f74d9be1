// `npm run serve`: prepares what headless mode needs (the native driver for this Node, the UI and the
// server bundles when missing or stale), then runs the compiled server in this same process, so a
// signal sent to it is the server's to handle.
import v8 from 'node:v8';
import { requireWithCodeCache } from './code-cache.mjs';

await import('./ensure-node-sqlite.mjs');
const { buildRendererIfMissing } = await import('./build-renderer-if-missing.mjs');
const { buildServerIfStale, serverBundle } = await import('./build-server.mjs');
await buildRendererIfMissing();
await buildServerIfStale();
// The server sets --heap-growing-percent once it is serving (keepHeapNearLive, server/lib/heap-growth.ts).
// V8 stamps a code cache with the flags in force when it is written, at exit, and refuses it under any
// others: the flag goes back to V8's default (0, its own heuristics) first, as it is when the next
// start reads the cache.
requireWithCodeCache(serverBundle, {
  beforeWrite: () => v8.setFlagsFromString('--heap-growing-percent=0'),
});
