import { execFile, execFileSync } from 'node:child_process';
import { chownSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const BIN = process.env.PG_BIN ?? '/usr/lib/postgresql/15/bin';
const USER = 'shopdesk';

export interface ThrowawayPostgres {
  /** postgres://… on 127.0.0.1, trusted, database `postgres`. */
  url: string;
  /** Stops the server and removes its folder. */
  stop(): Promise<void>;
}

/**
 * A throwaway PostgreSQL cluster of its own: initdb into a temporary folder, started on a free
 * port of 127.0.0.1 with its socket in that folder, so nothing touches an installed cluster. PostgreSQL
 * refuses to run as root, so under root (CI) the server runs as the `postgres` OS user. Tests
 * (test/helpers/postgres.ts) and the hub benchmark (bench/cases/hub.ts) both start theirs here.
 */
export async function startThrowawayPostgres(
  options: { durable?: boolean } = {},
): Promise<ThrowawayPostgres> {
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-pg-'));
  const data = path.join(dir, 'data');
  const asServer = await serverUser(dir);
  const port = await freePort();
  try {
    await asServer(`${BIN}/initdb`, ['-D', data, '-U', USER, '--auth=trust', '-E', 'UTF8', '--no-sync']);
    const settings = [
      `-p ${port}`,
      `-k ${dir}`,
      '-c listen_addresses=127.0.0.1',
      // Tests need no durability and run faster without flushing; a benchmark flushes as production does.
      ...(options.durable ? [] : ['-c fsync=off', '-c synchronous_commit=off', '-c full_page_writes=off']),
    ].join(' ');
    await asServer(`${BIN}/pg_ctl`, ['start', '-w', '-D', data, '-l', path.join(dir, 'log'), '-o', settings]);
  } catch (error) {
    rmSync(dir, { recursive: true, force: true });
    throw error;
  }
  let stopped: Promise<void> | undefined;
  // A process that ends without stopping it (a timed-out test hook, an exception) still stops
  // its server: nothing else would, and it would keep its port and folder.
  const onExit = () => {
    try {
      execFileSync(...asServer.command(`${BIN}/pg_ctl`, ['stop', '-D', data, '-m', 'immediate', '-w']));
    } catch {}
    rmSync(dir, { recursive: true, force: true });
  };
  process.once('exit', onExit);
  return {
    url: `postgres://${USER}@127.0.0.1:${port}/postgres`,
    stop: () => {
      stopped ??= (async () => {
        process.off('exit', onExit);
        await asServer(`${BIN}/pg_ctl`, ['stop', '-D', data, '-m', 'immediate', '-w']).catch(() => {});
        rmSync(dir, { recursive: true, force: true });
      })();
      return stopped;
    },
  };
}

/** Runs a PostgreSQL binary as the user the server may run as; `command` gives it for execFileSync. */
async function serverUser(dir: string) {
  let command = (file: string, args: string[]): [string, string[]] => [file, args];
  if (process.getuid?.() === 0) {
    const { stdout: uid } = await run('id', ['-u', 'postgres']);
    const { stdout: gid } = await run('id', ['-g', 'postgres']);
    chownSync(dir, Number(uid.trim()), Number(gid.trim()));
    command = (file, args) => ['runuser', ['-u', 'postgres', '--', file, ...args]];
  }
  return Object.assign((file: string, args: string[]) => run(...command(file, args)), { command });
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
