import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig, type Plugin } from 'vite';

const zoneDatabase = fileURLToPath(new URL('./shared/zone-database.ts', import.meta.url));
const rendererZoneData = fileURLToPath(new URL('./renderer/lib/zone-data.ts', import.meta.url));

/** The zone table loads on demand in the UI: its own source of the data replaces the server's. */
const zoneDataOnDemand: Plugin = {
  name: 'zone-data-on-demand',
  enforce: 'pre',
  resolveId: (source, importer) =>
    source === './zone-data' && importer === zoneDatabase ? rendererZoneData : undefined,
};

/** The portal UI: sources in renderer/, built to dist/renderer, which the server serves at `/`. */
export default defineConfig({
  root: fileURLToPath(new URL('./renderer', import.meta.url)),
  base: '/',
  plugins: [zoneDataOnDemand, react()],
  build: {
    outDir: fileURLToPath(new URL('./dist/renderer', import.meta.url)),
    emptyOutDir: true,
    target: 'es2022',
    sourcemap: false,
    reportCompressedSize: false,
    // The time-zone table is one chunk of ~680 KB, loaded after the first screen.
    chunkSizeWarningLimit: 700,
  },
  server: {
    proxy: {
      '/api': 'http://127.0.0.1:4300',
      '/sign-in': 'http://127.0.0.1:4300',
    },
  },
});
