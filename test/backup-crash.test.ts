import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { openSqliteFile, parseDatabaseKey } from '../server/db/cipher';
import { databaseFile } from '../server/db/database';
import { expectStatus } from './helpers/api-responses';
import { bundledArgs } from './helpers/process-bundles';
import { startTestServer, type TestServer } from './helpers/server';

const PASSPHRASE = 'pull the plug';
const KEY = parseDatabaseKey(PASSPHRASE);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-crash-'));
let server: TestServer | undefined;

afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The CLI in a process of its own, so the test can kill it like a power cut kills a machine. */
function cliBackup(): ChildProcess {
  return spawn(process.execPath, bundledArgs('cli', 'backup', 'create', '--data-dir', dataDir), {
    cwd: root,
    env: { ...process.env, SHOPDESK_DB_KEY: PASSPHRASE },
    stdio: 'ignore',
  });
}

const partials = (folder: string) => readdirSync(folder).filter((name) => name.endsWith('.partial'));

describe('pulling the plug mid-backup', () => {
  it('leaves the earlier backups and the live database good, and the next backup clears the debris', async () => {
    server = await startTestServer({ dataDir, key: KEY });
    const shop = await server.createAccount();
    // Enough data that copying it takes a while: the kill must land while the copy is being written.
    const ballast = openSqliteFile(databaseFile(dataDir), KEY);
    ballast.exec(`create table ballast (bytes blob);
      with recursive n(i) as (select 1 union all select i + 1 from n where i < 4000)
      insert into ballast select randomblob(16384) from n;`);
    ballast.close();
    const earlier = await server.backups.create('manual');
    const folder = server.backups.folder();

    const child = cliBackup();
    const exited = new Promise((resolve) => child.once('exit', resolve));
    let caught = false;
    for (let tries = 0; tries < 20_000 && !caught; tries++) {
      caught = partials(folder).length > 0;
      if (!caught) await sleep(1);
    }
    // The server keeps taking writes while the backup runs and when it dies.
    const during = await shop.portal('POST', '/customers', {
      body: { name: 'During', email: 'during@example.com' },
    });
    child.kill('SIGKILL');
    await exited;
    expect(caught).toBe(true);
    expect(partials(folder)).toHaveLength(1);

    expect(server.backups.list().map((b) => b.id)).toEqual([earlier.id]);
    expect((await server.backups.verify(earlier.id)).result).toBe('verified');
    expectStatus(during, 201);
    const after = await shop.portal('POST', '/customers', {
      body: { name: 'After', email: 'after@example.com' },
    });
    expectStatus(after, 201);
    const live = openSqliteFile(databaseFile(dataDir), KEY, { readonly: true });
    expect(live.pragma('integrity_check', { simple: true })).toBe('ok');
    expect(live.prepare('select count(*) from customers').pluck().get()).toBe(2);
    live.close();

    const next = await server.backups.create('manual');
    expect(next.result).toBe('verified');
    expect(partials(folder)).toEqual([]);
    expect(existsSync(next.file)).toBe(true);
  }, 60_000);
});
