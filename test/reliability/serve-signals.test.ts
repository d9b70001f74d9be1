import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
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
