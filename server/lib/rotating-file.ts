import { appendFileSync, mkdirSync, renameSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';

export interface LineSink {
  write(line: string): void;
}

export interface RotationOptions {
  /** The file is moved aside once it would grow past this. */
  maxBytes?: number;
  /** How many moved-aside files (`name.1` … `name.N`) are kept. */
  keep?: number;
}

function sizeOf(file: string): number {
  try {
    return statSync(file).size;
  } catch {
    return 0;
  }
}

/**
 * An append-only log file that never outgrows its bound: past maxBytes it becomes `name.1` (the
 * older ones shift up, the oldest is dropped). A desktop app's logs are read after the fact, on a
 * machine nobody administers, so they must neither fill the disk nor lose the latest lines.
 * Writes are synchronous so the last lines before a crash are on disk.
 */
export function rotatingFile(file: string, options: RotationOptions = {}): LineSink {
  const maxBytes = options.maxBytes ?? 5 * 1024 * 1024;
  const keep = options.keep ?? 3;
  mkdirSync(path.dirname(file), { recursive: true });
  let size = sizeOf(file);

  const rotate = () => {
    rmSync(`${file}.${keep}`, { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      if (sizeOf(`${file}.${n}`) > 0) renameSync(`${file}.${n}`, `${file}.${n + 1}`);
    }
    renameSync(file, `${file}.1`);
    size = 0;
  };

  return {
    write(line) {
      const bytes = Buffer.byteLength(line);
      try {
        if (size > 0 && size + bytes > maxBytes) rotate();
        appendFileSync(file, line);
        size += bytes;
      } catch {
        process.stderr.write(line);
      }
    },
  };
}
