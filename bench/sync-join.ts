import { execFileSync, spawn } from 'node:child_process';
import { createReadStream, createWriteStream, rmSync, statSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3-multiple-ciphers';

/**
 * The sync case's first-sync measurement: the join in a child process under `/usr/bin/time`, and
 * its floor, the joining device's own file streamed over loopback HTTP.
 */

const repo = path.join(path.dirname(fileURLToPath(import.meta.url)), '..');

/**
 * The CLI's `sync join` in a process of its own, so its peak memory is its own, run compiled
 * (dist/server/cli.cjs, built first and not timed) as the desktop app runs the server: under tsx
 * the process held ~70 MB more before the first row and spent seconds transpiling.
 */
export function joinInChild(
  hubUrl: string,
  code: string,
  dataDir: string,
): Promise<{ ms: number; peakKb: number; cpuSeconds: number }> {
  execFileSync(process.execPath, ['scripts/build-server.mjs'], { cwd: repo, stdio: 'inherit' });
  const started = performance.now();
  const child = spawn(
    '/usr/bin/time',
    [
      '-v',
      process.execPath,
      'dist/server/cli.cjs',
      'sync',
      'join',
      '--hub',
      hubUrl,
      '--code',
      code,
      '--json',
      '--data-dir',
      dataDir,
    ],
    { cwd: repo, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk) => {
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => {
    stderr += chunk;
  });
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code) => {
      const ms = performance.now() - started;
      const peak = /Maximum resident set size \(kbytes\): (\d+)/.exec(stderr);
      const user = /User time \(seconds\): ([\d.]+)/.exec(stderr);
      const system = /System time \(seconds\): ([\d.]+)/.exec(stderr);
      if (code !== 0 || !peak || !user || !system) {
        reject(new Error(`sync join exited ${code}: ${stdout}${stderr.slice(-2000)}`));
        return;
      }
      // CPU time beside wall time: on a loaded machine the wall time measures the neighbours too.
      resolve({ ms, peakKb: Number(peak[1]), cpuSeconds: Number(user[1]) + Number(system[1]) });
    });
  });
}

/** The rows the hub holds for the business: what a first sync reads (tombstones and merges too). */
export function hubRowCount(file: string, accountId: string): number {
  const db = new SQLite(file, { readonly: true });
  try {
    return (
      db.prepare('SELECT count(*) AS n FROM hub_rows WHERE account_id = ?').get(accountId) as { n: number }
    ).n;
  } finally {
    db.close();
  }
}

/** Moves the WAL into the file, so the floor copies everything the file holds. */
export function checkpoint(file: string): void {
  const db = new SQLite(file);
  try {
    db.pragma('wal_checkpoint(TRUNCATE)');
  } finally {
    db.close();
  }
}

/** The floor of a first sync: the bytes of a database file streamed over loopback HTTP to disk. */
export async function copyOverHttp(file: string, to: string): Promise<{ ms: number; bytes: number }> {
  const server = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'application/octet-stream' });
    createReadStream(file).pipe(response);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  try {
    const started = performance.now();
    await new Promise<void>((resolve, reject) => {
      http
        .get(`http://127.0.0.1:${port}/`, (response) => {
          pipeline(response, createWriteStream(to)).then(resolve, reject);
        })
        .on('error', reject);
    });
    const ms = performance.now() - started;
    return { ms, bytes: statSync(to).size };
  } finally {
    server.close();
    rmSync(to, { force: true });
  }
}
