import { renameSync, rmSync } from 'node:fs';
import { syncFile } from '../lib/durable-files';
import { type DatabaseKey, keyPragmas, rekeyPragmas } from './cipher';
import { runFileTask, type Verification } from './file-worker';

/** Whether a copy holds what the original held: both intact, the same tables with the same row counts. */
export function sameContent(original: Verification, copy: Verification): boolean {
  if (original.integrity !== 'ok' || copy.integrity !== 'ok') return false;
  const names = Object.keys(original.tables);
  return (
    names.length === Object.keys(copy.tables).length &&
    names.every((name) => copy.tables[name] === original.tables[name])
  );
}

/**
 * Encrypts a plain database file that nobody has open: copy it (with its WAL) into `<file>.encrypting`,
 * encrypt the copy, prove the copy opens with the key and holds every row, then swap it in. A crash at
 * any step leaves either the plain file or the encrypted one, never a mix; the leftover copy is
 * removed on the next attempt.
 */
export async function encryptInPlace(file: string, key: DatabaseKey): Promise<void> {
  const copy = `${file}.encrypting`;
  rmSync(copy, { force: true });
  try {
    const original = await runFileTask({ kind: 'verify', file, keyPragmas: [] });
    await runFileTask({ kind: 'snapshot', source: file, target: copy, keyPragmas: [] });
    await runFileTask({ kind: 'rekey', file: copy, rekeyPragmas: rekeyPragmas(key) });
    const encrypted = await runFileTask({ kind: 'verify', file: copy, keyPragmas: keyPragmas(key) });
    if (!sameContent(original, encrypted))
      throw new Error(`The encrypted copy of ${file} does not match it; the plain file was left as it was`);
    // The plain file's WAL would otherwise be replayed onto the encrypted file.
    rmSync(`${file}-wal`, { force: true });
    rmSync(`${file}-shm`, { force: true });
    syncFile(copy);
    renameSync(copy, file);
  } finally {
    rmSync(copy, { force: true });
  }
}
