// Bundles the desktop shell into dist/electron: main.cjs (main process), preload.cjs (the window's
// preload, sandboxed, so everything but electron must be inside it), utility-server.cjs (the server)
// and webhook-thread.cjs (the server's webhook delivery thread).
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import path from 'node:path';
import { build } from 'esbuild';
import { bundleOptions, root, serverExternals } from './server-bundle.mjs';

const outdir = path.join(root, 'dist/electron');
const externals = serverExternals();

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

await Promise.all([
  build({
    ...bundleOptions,
    entryPoints: {
      main: 'electron/main.ts',
      'utility-server': 'electron/utility-server.ts',
      // Webhook delivery's thread, beside the server that starts it (server/outbound/webhook-worker.ts).
      'webhook-thread': 'server/outbound/webhook-thread.ts',
    },
    outdir,
    external: ['electron', ...externals],
  }),
  build({
    ...bundleOptions,
    entryPoints: { preload: 'electron/preload.ts' },
    outdir,
    external: ['electron'],
  }),
]);

for (const icon of ['icon.png', 'tray-icon.png'])
  copyFileSync(path.join(root, 'build', icon), path.join(outdir, icon));

console.log(`Built dist/electron (kept in node_modules: ${externals.join(', ')})`);
