// Whether a build output is missing or older than what it is built from: `npm run serve` builds what is
// stale, so a fresh clone (or a pull) runs current code without a manual build step.
import { readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/**
 * The newest modification time in a file or folder, the folders' own included (a file deleted or
 * renamed changes its folder's). Every `npm run serve` walks the sources: directory entries say which
 * are folders, so only files and folders are stat'ed, once each.
 */
function newestMtime(target) {
  const stat = statSync(target, { throwIfNoEntry: false });
  if (!stat?.isDirectory()) return stat?.mtimeMs ?? 0;
  let newest = stat.mtimeMs;
  const walk = (folder) => {
    for (const entry of readdirSync(folder, { withFileTypes: true })) {
      const full = path.join(folder, entry.name);
      if (entry.isDirectory()) {
        newest = Math.max(newest, statSync(full).mtimeMs);
        walk(full);
      } else newest = Math.max(newest, statSync(full).mtimeMs);
    }
  };
  walk(target);
  return newest;
}

export function isStale(output, sources) {
  const built = statSync(output, { throwIfNoEntry: false });
  return !built || sources.some((source) => newestMtime(source) > built.mtimeMs);
}
