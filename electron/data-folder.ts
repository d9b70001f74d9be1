import { mkdirSync } from 'node:fs';
import path from 'node:path';

export interface DataFolderSources {
  /** The process arguments; `--data-dir DIR` or `--data-dir=DIR` wins over everything else. */
  argv: readonly string[];
  env: Readonly<Record<string, string | undefined>>;
  /** Electron's app.getPath('userData'). */
  userDataPath: string;
  cwd: string;
}

function flagValue(argv: readonly string[], flag: string): string | undefined {
  for (const [index, arg] of argv.entries()) {
    if (arg === flag) return argv[index + 1];
    if (arg.startsWith(`${flag}=`)) return arg.slice(flag.length + 1);
  }
  return undefined;
}

/** Where the business data lives: --data-dir, else SHOPDESK_DATA_DIR, else <userData>/data. Always absolute. */
export function resolveDataFolder(sources: DataFolderSources): string {
  const chosen = flagValue(sources.argv, '--data-dir') || sources.env.SHOPDESK_DATA_DIR;
  return chosen ? path.resolve(sources.cwd, chosen) : path.join(sources.userDataPath, 'data');
}

export function ensureDataFolder(folder: string): string {
  mkdirSync(folder, { recursive: true });
  return folder;
}
