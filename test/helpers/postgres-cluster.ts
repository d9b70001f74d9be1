import { execFile, execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = process.env.PG_BIN ?? installedBin();
const USER = 'shopdesk';

export interface ThrowawayPostgres {
  /** postgres://… on 127.0.0.1, trusted, database `postgres`. */
  url: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of its own: initdb into a temporary folder, started on a free
 * port of 127.0.0.1 with its socket in that folder, so nothing touches an installed cluster. The
 * hub benchmark (bench/cases/hub.ts) starts its own here; a test run shares one
 * (test/helpers/postgres.ts).
 */
export async function startThrowawayPostgres(
  options: { durable?: boolean } = {},
): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-pg-'));
  let url: string;
  try {
    url = await startCluster(dir, options);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  // A process that ends without stopping it (a timed-out hook, an exception) still stops its
  // server: nothing else would, and it would keep its port and folder.
  const onExit = () => stopClusterSync(dir);
  process.once('exit', onExit);
  return {
    url,
    stop: () => {
      stopped ??= (async () => {
        process.off('exit', onExit);
        await stopCluster(dir);
      })();
      return stopped;
    },
  };
}

/**
 * Starts a cluster in `dir` (an empty folder) and answers its URL. It keeps running after this
 * process ends, until stopCluster(dir). Tests need no durability and run faster without flushing;
 * a benchmark asks for `durable` and flushes as production does.
 */
export async function startCluster(dir: string, options: { durable?: boolean } = {}): Promise<string> {
  const data = path.join(dir, 'data');
  await ownedByServer(dir);
  const port = await freePort();
  await run(
    ...asServer(`${BIN}/initdb`, ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-sync']),
  );
  const settings = [
    `-p ${port}`,
    `-k ${dir}`,
    '-c listen_addresses=127.0.0.1',
    ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
  ].join(' ');
  await run(
    ...asServer(`${BIN}/pg_ctl`, ['start', '-w', '-D', data, '-l', path.join(dir, 'log'), '-o', settings]),
  );
  return `postgres://${USER}@127.0.0.1:${port}/postgres`;
}

/** Stops the cluster in `dir`, if one runs there, and removes the folder. */
export async function stopCluster(dir: string): Promise<void> {
  if (existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
    await run(
      ...asServer(`${BIN}/pg_ctl`, ['stop', '-D', path.join(dir, 'data'), '-m', 'immediate', '-w']),
    ).catch(() => {});
  }
  rmSync(dir, { recursive: true, force: true });
}

/** stopCluster for a process's 'exit' handler, where nothing asynchronous runs any more. */
export function stopClusterSync(dir: string): void {
  if (existsSync(path.join(dir, 'data', 'postmaster.pid'))) {
    try {
      execFileSync(
        ...asServer(`${BIN}/pg_ctl`, ['stop', '-D', path.join(dir, 'data'), '-m', 'immediate', '-w']),
      );
    } catch {}
  }
  rmSync(dir, { recursive: true, force: true });
}

const asRoot = () => process.getuid?.() === 0;

/** PostgreSQL refuses to run as root, so under root (CI) the server runs as the `postgres` OS user. */
function asServer(file: string, args: string[]): [string, string[]] {
  return asRoot() ? ['runuser', ['-u', 'postgres', '--', file, ...args]] : [file, args];
}

async function ownedByServer(dir: string): Promise<void> {
  if (!asRoot()) return;
  const { stdout: uid } = await run('id', ['-u', 'postgres']);
  const { stdout: gid } = await run('id', ['-g', 'postgres']);
  chownSync(dir, Number(uid.trim()), Number(gid.trim()));
}

/** The newest PostgreSQL Debian's packages installed (scripts/ensure-test-deps.mjs installs one). */
function installedBin(): string {
  const root = '/usr/lib/postgresql';
  const versions = existsSync(root)
    ? readdirSync(root).filter((v) => existsSync(path.join(root, v, 'bin', 'initdb')))
    : [];
  const newest = versions.sort((a, b) => Number(b) - Number(a))[0] ?? '15';
  return path.join(root, newest, 'bin');
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}
