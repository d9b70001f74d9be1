import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The server's layers (docs/architecture.md): a module may import from its own layer and the ones
 * below it, never from one above. Test files are left out: a test may reach anything.
 */
const ROOT = path.resolve(import.meta.dirname, '..');

const LAYERS = ['lib', 'db', 'domain', 'services', 'http', 'composition'] as const;
type Layer = (typeof LAYERS)[number];

/** The composition roots: the entry points that build the context and start everything. */
const ROOTS = new Set([
  'server/index.ts',
  'server/serve.ts',
  'server/hub.ts',
  'server/cli.ts',
  'server/cli-args.ts',
  'server/cli-import-export.ts',
  'server/sync/cli.ts',
  'server/sync/hub/hosted.ts',
]);

function layerOf(file: string): Layer | null {
  if (ROOTS.has(file)) return 'composition';
  // Routes are the HTTP layer wherever they live (the sync API's are in the sync room).
  if (file.startsWith('server/') && file.endsWith('routes.ts')) return 'http';
  const [top, folder] = file.split('/');
  if (top === 'shared') return 'lib';
  if (top !== 'server') return null;
  if (folder === 'context.ts') return 'domain';
  switch (folder) {
    case 'lib':
      return 'lib';
    case 'db':
      return 'db';
    case 'domain':
      return 'domain';
    case 'documents':
    case 'outbound':
    case 'sync':
    case 'backups':
    case 'maintenance':
    case 'client-hub':
      return 'services';
    case 'http':
      return 'http';
    default:
      return null;
  }
}

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const relative = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(relative);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [relative] : [];
  });
}

/** Every relative import of a file (static, re-export, dynamic), resolved to a repository path. */
function importsOf(file: string, read: (file: string) => string): string[] {
  const text = read(file);
  const specifiers = [...text.matchAll(/(?:from|import)\s*\(?\s*'(\.{1,2}\/[^']+)'/g)].map((m) => m[1]!);
  return specifiers.map((specifier) => {
    const target = path.posix.normalize(path.posix.join(path.posix.dirname(file), specifier));
    return target.endsWith('.ts') ? target : `${target}.ts`;
  });
}

/** Each import that runs up a layer, as "file → target (layer → layer)". */
function upwardImports(
  files: string[],
  read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8'),
): string[] {
  const found: string[] = [];
  for (const file of files) {
    const from = layerOf(file);
    if (!from) continue;
    for (const target of importsOf(file, read)) {
      const to = layerOf(target);
      if (to && LAYERS.indexOf(to) > LAYERS.indexOf(from))
        found.push(`${file} → ${target} (${from} → ${to})`);
    }
  }
  return found;
}

describe('the layers', () => {
  const files = [...sourceFiles('server'), ...sourceFiles('shared')];

  it('places every server and shared module in a layer', () => {
    expect(files.filter((file) => layerOf(file) === null)).toEqual([]);
  });

  it('has no import running up a layer', () => {
    expect(upwardImports(files)).toEqual([]);
  });

  it('catches an upward import, static, type-only or dynamic, and lets a downward one be', () => {
    const sources: Record<string, string> = {
      'server/domain/merge.ts': `import { SYNCED_TABLES } from '../sync/tables';\nimport type { Db } from '../db/database';`,
      'server/db/open.ts': `const { installCapture } = await import('../sync/capture');`,
      'shared/schemas/x.ts': `export type { AppContext } from '../../server/context';`,
      'server/sync/hub/routes.ts': `import { commonErrors } from '../../http/schemas';`,
    };
    expect(upwardImports(Object.keys(sources), (file) => sources[file]!)).toEqual([
      'server/domain/merge.ts → server/sync/tables.ts (domain → services)',
      'server/db/open.ts → server/sync/capture.ts (db → services)',
      'shared/schemas/x.ts → server/context.ts (lib → domain)',
    ]);
  });
});
