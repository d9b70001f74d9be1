// Bundles the desktop shell into dist/electron: main.cjs (main process), preload.cjs (the window's
// preload, sandboxed, so everything but electron must be inside it) and utility-server.cjs (the server).
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const outdir = path.join(root, 'dist/electron');
const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const requireFromRoot = createRequire(path.join(root, 'package.json'));

function nearestPackageType(file) {
  for (let dir = path.dirname(file); dir !== path.dirname(dir); dir = path.dirname(dir)) {
    const candidate = path.join(dir, 'package.json');
    if (existsSync(candidate)) return JSON.parse(readFileSync(candidate, 'utf8')).type ?? 'commonjs';
  }
  return 'commonjs';
}

/**
 * Whether require() of the package loads CommonJS. Those stay in node_modules (packaged with the app),
 * which keeps working whatever they read beside their own files (pdfkit's fonts, Swagger UI's assets).
 * ESM-only packages are bundled instead, since a CommonJS bundle cannot rely on require() of ESM.
 */
function loadsAsCommonJs(name) {
  let resolved;
  try {
    resolved = requireFromRoot.resolve(name);
  } catch {
    return false;
  }
  if (resolved.endsWith('.cjs')) return true;
  if (resolved.endsWith('.mjs')) return false;
  return nearestPackageType(resolved) !== 'module';
}

const dependencyExternals = Object.keys(packageJson.dependencies ?? {}).filter(
  (name) => name !== 'better-sqlite3-multiple-ciphers' && loadsAsCommonJs(name),
);

/**
 * The server finds files next to its sources through import.meta.url (the built UI, for one), which a
 * CommonJS bundle does not have. Each module gets the URL its source has in the app (dist/electron/../..),
 * so paths it derives from it land where they do when it runs from source.
 */
const importMetaPlugin = {
  name: 'source-import-meta',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const relative = JSON.stringify(path.relative(root, args.path).split(path.sep).join('/'));
      const filename = `require('node:path').join(__dirname, '..', '..', ${relative})`;
      const contents = source
        .replaceAll('import.meta.url', `require('node:url').pathToFileURL(${filename}).href`)
        .replaceAll('import.meta.filename', filename)
        .replaceAll('import.meta.dirname', `require('node:path').dirname(${filename})`);
      const ext = path.extname(args.path).slice(1);
      return { contents, loader: ext === 'mts' ? 'ts' : ext === 'mjs' ? 'js' : ext };
    });
  },
};

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Electron 45 runs Node 22.
  target: 'node22',
  sourcemap: 'linked',
  logLevel: 'warning',
  plugins: [importMetaPlugin],
};

rmSync(outdir, { recursive: true, force: true });
mkdirSync(outdir, { recursive: true });

await Promise.all([
  build({
    ...common,
    entryPoints: { main: 'electron/main.ts', 'utility-server': 'electron/utility-server.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    absWorkingDir: root,
    external: ['electron', 'better-sqlite3-multiple-ciphers', ...dependencyExternals],
  }),
  build({
    ...common,
    entryPoints: { preload: 'electron/preload.ts' },
    outdir,
    outExtension: { '.js': '.cjs' },
    absWorkingDir: root,
    external: ['electron'],
  }),
]);

for (const icon of ['icon.png', 'tray-icon.png'])
  copyFileSync(path.join(root, 'build', icon), path.join(outdir, icon));

console.log(
  `Built dist/electron (kept in node_modules: ${['better-sqlite3-multiple-ciphers', ...dependencyExternals].join(', ')})`,
);
