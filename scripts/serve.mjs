// `npm run serve`: prepares what headless mode needs (the native driver for this Node, the UI and the
// server bundles when missing or stale), then runs the compiled server in this same process, so a
// signal sent to it is the server's to handle.
import { requireWithCodeCache } from './code-cache.mjs';

await import('./ensure-node-sqlite.mjs');
const { buildRendererIfMissing } = await import('./build-renderer-if-missing.mjs');
const { buildServerIfStale, serverBundle } = await import('./build-server.mjs');
await buildRendererIfMissing();
await buildServerIfStale();
requireWithCodeCache(serverBundle);
