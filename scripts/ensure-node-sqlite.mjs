// better-sqlite3-multiple-ciphers is a native module built for one ABI at a time. `npm start` rebuilds it for
// Electron; the headless server and the tests run in plain Node. When the build in
// node_modules is Electron's, rebuild it for Node so `npm run serve` and `npm test` just work.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
try {
  const Database = require('better-sqlite3-multiple-ciphers');
  new Database(':memory:').close();
} catch (error) {
  if (!/NODE_MODULE_VERSION|was compiled against a different Node\.js version/.test(String(error)))
    throw error;
  console.error(
    'better-sqlite3-multiple-ciphers was built for Electron; rebuilding it for Node (about a minute)…',
  );
  // Loaded only here: child_process is a good part of what this check costs at every start.
  const { execSync } = await import('node:child_process');
  execSync('npm rebuild better-sqlite3-multiple-ciphers', { stdio: 'inherit' });
}
