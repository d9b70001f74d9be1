// `npm run serve`: prepares what headless mode needs (the native driver for this Node, the UI and the
// server bundles when missing or stale), then runs the compiled server in this same process, so a
// signal sent to it is the server's to handle.
import v8 from 'node:v8';
import { requireWithCodeCache } from './code-cache.mjs';

// The server sets this first thing (keepHeapNearLive, server/lib/heap-growth.ts). V8 stamps a code
// cache with the flags in force when it is written, at exit, and refuses it under any others: set
// before the bundle is compiled, the next start takes the cache instead of compiling it all again.
v8.setFlagsFromString('--heap-growing-percent=25');

await import('./ensure-node-sqlite.mjs');
const { buildRendererIfMissing } = await import('./build-renderer-if-missing.mjs');
const { buildServerIfStale, serverBundle } = await import('./build-server.mjs');
await buildRendererIfMissing();
await buildServerIfStale();
requireWithCodeCache(serverBundle);
