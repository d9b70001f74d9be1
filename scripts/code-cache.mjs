// Runs a CommonJS bundle with a V8 code cache beside it, so a start does not parse and compile again
// what the last one compiled (about a quarter of headless mode's start-up CPU). Node 20 has no
// module.enableCompileCache; this is what it does, for one file. The cache is written when the
// process exits (by then it holds every function the start and the requests since compiled), and
// only when there was none for this exact bundle or V8 refused it (another Node or other flags).
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import Module, { createRequire } from 'node:module';
import path from 'node:path';
import vm from 'node:vm';

/** V8 checks a cache against the source's length only: the name carries the content's hash. */
function cacheFileFor(file, bytes) {
  const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 16);
  return `${file}.${hash}.v8cache`;
}

function readIfPresent(file) {
  try {
    return readFileSync(file);
  } catch {
    return undefined;
  }
}

function writeCache(file, cacheFile, script) {
  try {
    const folder = path.dirname(file);
    const stale = `${path.basename(file)}.`;
    for (const entry of readdirSync(folder))
      if (entry.startsWith(stale) && entry.endsWith('.v8cache')) rmSync(path.join(folder, entry));
    writeFileSync(cacheFile, script.createCachedData());
  } catch {
    // A read-only install starts as it would without a cache.
  }
}

/**
 * require(file), compiled with the cache when there is a usable one. `beforeWrite` runs at exit just
 * before a cache is written: V8 stamps it with the flags in force then, and the next start must have
 * the same ones to take it.
 */
export function requireWithCodeCache(file, { beforeWrite = () => {} } = {}) {
  const bytes = readFileSync(file);
  // Decoded as UTF-8, a file with any other character becomes a string of two bytes a character:
  // twice the memory and several times the time to read a bundle of megabytes. ASCII is both encodings.
  const source = bytes.toString(isAscii(bytes) ? 'latin1' : 'utf8');
  const cacheFile = cacheFileFor(file, bytes);
  const cachedData = readIfPresent(cacheFile);
  const script = new vm.Script(Module.wrap(source), {
    filename: file,
    cachedData,
    importModuleDynamically: vm.constants.USE_MAIN_CONTEXT_DEFAULT_LOADER,
  });
  if (!cachedData || script.cachedDataRejected)
    process.once('exit', () => {
      beforeWrite();
      writeCache(file, cacheFile, script);
    });
  const module = new Module(file);
  module.filename = file;
  module.paths = Module._nodeModulePaths(path.dirname(file));
  const run = script.runInThisContext();
  run.call(module.exports, module.exports, createRequire(file), module, file, path.dirname(file));
  module.loaded = true;
  return module.exports;
}
