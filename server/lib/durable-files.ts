import { closeSync, fsyncSync, openSync, renameSync, writeFileSync } from 'node:fs';

/** Flushes a file to the disk, so a power cut after a rename cannot leave the name on a half-written file. */
export function syncFile(file: string): void {
  const fd = openSync(file, 'r+');
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

/** Replaces a file whole: readers see the old content or the new, never part of it. */
export function writeFileAtomically(file: string, content: string | Uint8Array, mode = 0o666): void {
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, content, { mode });
  syncFile(temporary);
  renameSync(temporary, file);
}
