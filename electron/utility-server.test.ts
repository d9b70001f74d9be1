import { type ChildProcess, fork } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isPlainDatabaseFile, openSqliteFile } from '../server/db/cipher';
import { bundledArgs } from '../test/helpers/process-bundles';
import { type FromServer, parseFromServer } from './protocol';

const children: ChildProcess[] = [];
const folders: string[] = [];

/** The real entry, bundled, in a Node child process standing in for Electron's utility process. */
function startServerProcess(
  dataDir: string,
  port = 0,
  extraArgs: string[] = [],
  env: Record<string, string> = {},
) {
  const [launcher, ...args] = bundledArgs(
    'utility-server',
    '--data-dir',
    dataDir,
    '--port',
    String(port),
    ...extraArgs,
  );
  const child = fork(launcher!, args, {
    execArgv: [],
    env: { ...process.env, ...env },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  children.push(child);
  const firstMessage = new Promise<FromServer>((resolve, reject) => {
    child.once('message', (raw) => {
      const message = parseFromServer(raw);
      if (message) resolve(message);
      else reject(new Error(`unexpected message ${JSON.stringify(raw)}`));
    });
    child.once('exit', (code) => reject(new Error(`exited with ${code} before reporting`)));
  });
  // A test that only waits for the exit must not trip over the unreported start.
  firstMessage.catch(() => undefined);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return { child, firstMessage, exited };
}

function tempFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'shopdesk-desktop-'));
  folders.push(folder);
  return folder;
}

async function status(url: string): Promise<{ online: boolean; version: string }> {
  const response = await fetch(`${url}/api/system/status`);
  expect(response.status).toBe(200);
  return (await response.json()) as { online: boolean; version: string };
}

async function eventually<T>(read: () => Promise<T>, accept: (value: T) => boolean): Promise<T> {
  for (;;) {
    const value = await read();
    if (accept(value)) return value;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

function accountCount(dataDir: string): { accounts: number; portalKeys: number } {
  const db = new Database(path.join(dataDir, 'shopdesk.sqlite'), { readonly: true });
  try {
    const accounts = (db.prepare('select count(*) as n from accounts').get() as { n: number }).n;
    const portalKeys = (
      db.prepare("select count(*) as n from api_keys where kind = 'portal'").get() as { n: number }
    ).n;
    return { accounts, portalKeys };
  } finally {
    db.close();
  }
}

afterAll(() => {
  for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

/**
 * One process through a whole life, then a second launch on its folder: each start costs seconds
 * on a loaded machine, so the tests below share it and run in order.
 */
describe('the server process (utility-server.ts), one life', () => {
  const dataDir = tempFolder();
  const logDir = path.join(dataDir, 'logs');
  let server: ReturnType<typeof startServerProcess>;
  let url: string;

  beforeAll(async () => {
    server = startServerProcess(dataDir, 0, ['--log-dir', logDir]);
    const ready = await server.firstMessage;
    if (ready.type !== 'ready') throw new Error(`expected ready, got ${JSON.stringify(ready)}`);
    url = ready.url;
    expect(ready.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    expect(ready.signInUrl.startsWith(`${ready.url}/sign-in?token=`)).toBe(true);
    const signIn = await fetch(ready.signInUrl, { redirect: 'manual' });
    expect(signIn.status).toBe(303);
    expect(signIn.headers.get('set-cookie')).toMatch(/HttpOnly/i);
  });

  it('reports ready with a working sign-in link and follows online messages', async () => {
    expect(await status(url)).toMatchObject({ online: true, version: expect.any(String) });
    server.child.send({ type: 'online', online: false });
    expect(
      (
        await eventually(
          () => status(url),
          (s) => !s.online,
        )
      ).online,
    ).toBe(false);
    server.child.send({ type: 'online', online: true });
    expect(
      (
        await eventually(
          () => status(url),
          (s) => s.online,
        )
      ).online,
    ).toBe(true);
  });

  it('ignores malformed messages', async () => {
    server.child.send({ type: 'online', online: 'no' });
    server.child.send({ type: 'reboot' });
    expect((await status(url)).online).toBe(true);
  });

  it('shuts down cleanly, having logged its requests to a rotating server.log in --log-dir', async () => {
    server.child.send({ type: 'shutdown' });
    expect(await server.exited).toBe(0);
    // The last connection to close checkpoints WAL mode's journal away: the database was closed, not abandoned.
    expect(existsSync(path.join(dataDir, 'shopdesk.sqlite-wal'))).toBe(false);
    await expect(fetch(`${url}/health`)).rejects.toThrow();
    const lines = readFileSync(path.join(logDir, 'server.log'), 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(lines).toContainEqual(
      expect.objectContaining({
        msg: 'request',
        route: '/api/system/status',
        status: 200,
        reqId: expect.any(String),
      }),
    );
  });

  it('creates the business on first launch only', async () => {
    const second = startServerProcess(dataDir);
    expect((await second.firstMessage).type).toBe('ready');
    second.child.send({ type: 'shutdown' });
    expect(await second.exited).toBe(0);
    expect(accountCount(dataDir)).toEqual({ accounts: 1, portalKeys: 1 });
  });
});

describe('the server process (utility-server.ts)', () => {
  it('reports a taken fixed port as port_in_use and exits', async () => {
    const blocker: Server = createServer();
    await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve));
    const port = (blocker.address() as { port: number }).port;
    try {
      const { firstMessage, exited } = startServerProcess(tempFolder(), port);
      expect(await firstMessage).toMatchObject({ type: 'startup-failed', reason: 'port_in_use', port });
      expect(await exited).toBe(1);
    } finally {
      await new Promise((resolve) => blocker.close(resolve));
    }
  });

  it('encrypts the database with the key the main process passes in its environment', async () => {
    const dataDir = tempFolder();
    const hex = 'ab'.repeat(32);
    const { child, firstMessage, exited } = startServerProcess(dataDir, 0, [], { SHOPDESK_DB_KEY: hex });
    expect((await firstMessage).type).toBe('ready');
    child.send({ type: 'shutdown' });
    expect(await exited).toBe(0);
    const file = path.join(dataDir, 'shopdesk.sqlite');
    expect(isPlainDatabaseFile(file)).toBe(false);
    const db = openSqliteFile(file, { hex }, { readonly: true });
    expect(db.prepare('select count(*) from accounts').pluck().get()).toBe(1);
    db.close();
  });

  it('finishes starting before it honours a shutdown that arrives early', async () => {
    const dataDir = tempFolder();
    const { child, exited } = startServerProcess(dataDir);
    child.send({ type: 'shutdown' });
    expect(await exited).toBe(0);
    expect(existsSync(path.join(dataDir, 'shopdesk.sqlite'))).toBe(true);
    expect(existsSync(path.join(dataDir, 'shopdesk.sqlite-wal'))).toBe(false);
  });
});
