import { existsSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import { type Backup, Backup as BackupSchema } from '../../shared/schemas/backup';
import { writeFileAtomically } from '../lib/durable-files';

/**
 * A backups folder describes itself: each `shopdesk-<id>.sqlite` has a `shopdesk-<id>.json` manifest
 * beside it, so a folder copied to another machine or an external drive still lists and verifies.
 * The id is the UTC creation time to the millisecond, so names sort by age.
 */
const PREFIX = 'shopdesk-';
export const PARTIAL_SUFFIX = '.partial';

export function backupId(at: Date): string {
  return at.toISOString().replace(/[-:.]/g, '');
}

export function backupFile(folder: string, id: string): string {
  return path.join(folder, `${PREFIX}${id}.sqlite`);
}

function manifestFile(folder: string, id: string): string {
  return path.join(folder, `${PREFIX}${id}.json`);
}

export function writeManifest(folder: string, backup: Backup): void {
  writeFileAtomically(manifestFile(folder, backup.id), `${JSON.stringify(backup, null, 2)}\n`);
}

export function readBackup(folder: string, id: string): Backup | undefined {
  const manifest = manifestFile(folder, id);
  if (!existsSync(manifest)) return undefined;
  const parsed = BackupSchema.safeParse(JSON.parse(readFileSync(manifest, 'utf8')));
  if (!parsed.success) return undefined;
  const file = backupFile(folder, id);
  const backup = { ...parsed.data, file };
  return existsSync(file) ? backup : { ...backup, result: 'missing' };
}

/** Every backup in the folder, newest first. Half-written files (`.partial`) are not backups. */
export function listBackups(folder: string): Backup[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith('.json'))
    .map((name) => readBackup(folder, name.slice(PREFIX.length, -'.json'.length)))
    .filter((backup): backup is Backup => backup !== undefined)
    .sort((a, b) => (a.id < b.id ? 1 : -1));
}

/** Leftovers of a backup cut short (a crash, a pulled plug): only ever half-written copies. */
export function partialFiles(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder)
    .filter((name) => name.startsWith(PREFIX) && name.endsWith(PARTIAL_SUFFIX))
    .map((name) => path.join(folder, name));
}

export function fileSize(file: string): number {
  return statSync(file).size;
}

export function removeBackup(folder: string, id: string): void {
  rmSync(backupFile(folder, id), { force: true });
  rmSync(manifestFile(folder, id), { force: true });
}
