// How the server is bundled into CommonJS with esbuild, for the desktop shell (build-electron.mjs) and
// headless mode (build-server.mjs): neither runs TypeScript through a loader at start-up.
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
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

/**
 * CommonJS packages the server loads at every start that read nothing beside their own code: carried
 * in the bundle, they cost one file to read and compile instead of hundreds to resolve (kysely alone
 * is ~200 files), and headless mode's code cache (scripts/code-cache.mjs) covers them. @fastify/static
 * serves the UI from the first request on; Swagger UI, which loads only when the docs are first asked
 * for (server/http/docs.ts), requires its own copy from node_modules then.
 */
const CARRIED = new Set([
  'kysely',
  'zod',
  'fastify',
  'fastify-type-provider-zod',
  '@fastify/cookie',
  '@fastify/static',
  'rrule',
  'ical-generator',
  'csv-parse',
  '@simplewebauthn/server',
]);

/** The production dependencies the bundles load from node_modules rather than carry. */
export function serverExternals() {
  const packageJson = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
  return [
    'better-sqlite3-multiple-ciphers',
    ...Object.keys(packageJson.dependencies ?? {}).filter(
      (name) => name !== 'better-sqlite3-multiple-ciphers' && !CARRIED.has(name) && loadsAsCommonJs(name),
    ),
  ];
}

/**
 * The server finds files next to its sources through import.meta.url (the built UI, for one), which a
 * CommonJS bundle does not have. Each module gets the URL its source has in the app (two folders up from
 * the bundle: dist/electron or dist/server), so paths it derives from it land where they do from source.
 */
const importMetaPlugin = {
  name: 'source-import-meta',
  setup(pluginBuild) {
    pluginBuild.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, (args) => {
      if (args.path.includes(`${path.sep}node_modules${path.sep}`)) return undefined;
      const source = readFileSync(args.path, 'utf8');
      if (!source.includes('import.meta')) return undefined;
      const relative = JSON.stringify(path.relative(root, args.path).split(path.sep).join('/'));
      const filename = `__sourcePath.join(__dirname, '..', '..', ${relative})`;
      // Imported under names of their own: a module may declare its own `require` (createRequire).
      const contents = `import * as __sourcePath from 'node:path';\nimport * as __sourceUrl from 'node:url';\n${source
        .replaceAll('import.meta.url', `__sourceUrl.pathToFileURL(${filename}).href`)
        .replaceAll('import.meta.filename', filename)
        .replaceAll('import.meta.dirname', `__sourcePath.dirname(${filename})`)}`;
      const ext = path.extname(args.path).slice(1);
      return { contents, loader: ext === 'mts' ? 'ts' : ext === 'mjs' ? 'js' : ext };
    });
  },
};

export const bundleOptions = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  // Electron 45 runs Node 22; headless mode needs Node 20.19 or later.
  target: 'node20',
  sourcemap: 'linked',
  logLevel: 'warning',
  absWorkingDir: root,
  outExtension: { '.js': '.cjs' },
  // A package loaded on first use (`await import('pdfkit')`, Swagger UI, pg…) is required instead.
  // Headless mode runs the bundle through a V8 code cache (scripts/code-cache.mjs), and on Node 20 the
  // functions V8 takes from a cache lose the script's dynamic-import callback: every such import()
  // then failed with ERR_VM_DYNAMIC_IMPORT_CALLBACK_MISSING from the second start on. The packages
  // kept out of the bundle are all CommonJS (serverExternals), which require() loads as import() did.
  supported: { 'dynamic-import': false },
  plugins: [importMetaPlugin],
};

/**
 * Writes esbuild's in-memory outputs (`write: false`) under temporary names and renames them, so a
 * process starting meanwhile reads a whole bundle, never half of one.
 */
export function writeBundles(outputFiles, outdir) {
  mkdirSync(outdir, { recursive: true });
  for (const file of outputFiles) {
    const temporary = `${file.path}.${process.pid}.tmp`;
    writeFileSync(temporary, file.contents);
    renameSync(temporary, file.path);
  }
}
