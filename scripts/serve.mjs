// `npm run serve`: prepares what headless mode needs, then runs the server in this same process
// (no tsx command in between), so a signal sent to it is the server's to handle.
import { register } from 'tsx/esm/api';

await import('./ensure-node-sqlite.mjs');
const { buildRendererIfMissing } = await import('./build-renderer-if-missing.mjs');
await buildRendererIfMissing();
register();
await import('../server/serve.ts');
