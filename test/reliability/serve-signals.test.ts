import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { expect, it } from 'vitest';
import { startTestServer } from '../helpers/server';

const root = path.resolve(import.meta.dirname, '../..');

// `npm run serve` builds the server (and the UI) first when they are missing or stale: minutes on a loaded machine.
it('npm run serve runs the compiled server; started through a shell that dies on SIGTERM, it stops too and frees its folder', {
  timeout: 300_000,
}, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-signals-'));
  // As `npm run serve` does: a shell between the signal's sender and the server, which ends on
  // SIGTERM without passing it on (the trailing `true` keeps the shell from exec'ing node).
  const shell = spawn(
    'sh',
    ['-c', `"${process.execPath}" scripts/serve.mjs --data-dir "${dataDir}" --port 0; true`],
    { cwd: root },
  );
  let output = '';
  shell.stdout.on('data', (chunk) => {
    output += chunk;
  });
  const saw = (text: string) =>
    new Promise<void>((resolve) => {
      const look = () => {
        if (!output.includes(text)) return;
        shell.stdout.off('data', look);
        resolve();
      };
      shell.stdout.on('data', look);
      look();
    });
  try {
    await saw('running at');
    // What answers is npm run serve's script running the bundle, current with the sources (no tsx).
    const bundle = statSync(path.join(root, 'dist/server/serve.cjs'));
    expect(bundle.mtimeMs).toBeGreaterThanOrEqual(statSync(path.join(root, 'server/serve.ts')).mtimeMs);
    const pid = /"pid":(\d+)/.exec(output)?.[1];
    expect(readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0')).toContain('scripts/serve.mjs');
    const url = /running at (\S+)/.exec(output)![1]!;
    shell.kill('SIGTERM');
    await saw('Stopped.');
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    const next = await startTestServer({ dataDir });
    await next.stop();
  } finally {
    shell.kill('SIGKILL');
    rmSync(dataDir, { recursive: true, force: true });
  }
});

/** The code caches beside the bundle (scripts/code-cache.mjs), with when each was written. */
function codeCaches(): Map<string, number> {
  const folder = path.join(root, 'dist/server');
  return new Map(
    readdirSync(folder)
      .filter((name) => name.endsWith('.v8cache'))
      .map((name) => [name, statSync(path.join(folder, name)).mtimeMs]),
  );
}

/**
 * Starts `npm run serve`'s script, waits for it to answer, asks `whileUp` of it, and stops it the way
 * a signal does.
 */
async function startAndStop(dataDir: string, whileUp?: (url: string) => Promise<void>): Promise<void> {
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--data-dir', dataDir, '--port', '0'], {
    cwd: root,
  });
  let output = '';
  const exited = new Promise((resolve) => child.once('exit', resolve));
  await new Promise<void>((resolve, reject) => {
    child.stdout.on('data', (chunk) => {
      output += chunk;
      // Printed last, after the signal handlers are in place.
      if (output.includes('Sign in')) resolve();
    });
    void exited.then(() => reject(new Error(`serve.mjs exited before it ran: ${output}`)));
  });
  try {
    await whileUp?.(/running at (\S+)/.exec(output)![1]!);
  } finally {
    child.kill('SIGTERM');
    await exited;
  }
}

// The cache is written at exit with the V8 flags then in force; the server sets one at its start, so
// the next start must set it before reading the cache, or V8 refuses it and compiles everything again.
it('a second start of npm run serve runs with the code cache the first one left', {
  timeout: 300_000,
}, async () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-code-cache-'));
  try {
    await startAndStop(dataDir);
    const left = codeCaches();
    expect(left.size).toBe(1);
    // Swagger UI and the OpenAPI document load their packages on first use, through import(),
    // which failed in every function V8 had taken from the cache.
    let docs = 0;
    await startAndStop(dataDir, async (url) => {
      docs = (await fetch(`${url}/docs/json`)).status;
    });
    expect(docs).toBe(200);
    // Rewritten only when V8 refused it: the same file, untouched, was taken.
    expect(codeCaches()).toEqual(left);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
});
