import { randomBytes } from 'node:crypto';
import {
  closeSync,
  cpSync,
  mkdtempSync,
  openSync,
  rmSync,
  statSync,
  truncateSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3-multiple-ciphers';
import { afterAll, describe, expect, it } from 'vitest';
import { createContext } from '../../server/context';
import { createAccount } from '../../server/domain/accounts';
import { createCustomer } from '../../server/domain/customers';
import { systemClock } from '../../server/lib/clock';
import { openDatabase } from '../../server/sync/open';
import { expectStatus } from '../helpers/api-responses';
import { startTestServer } from '../helpers/server';
import { cli, serve } from './processes';

const folders: string[] = [];
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-damage-'));
  folders.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

/** A data folder with a business and enough customers to span many pages, closed cleanly. */
async function populate(dataDir: string): Promise<void> {
  const database = await openDatabase(dataDir);
  const ctx = createContext(database.db, systemClock);
  const account = await createAccount(ctx, { businessName: 'Damaged', plan: 'platform', apiPlan: 'lite' });
  for (let i = 0; i < 400; i++) {
    await createCustomer(ctx, account.id, {
      name: `Customer ${i} ${'x'.repeat(200)}`,
      email: `c${i}@example.com`,
    });
  }
  database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
  await database.close();
}

let template: Promise<string> | undefined;

/** A copy of one populated folder per test (each damages its own): filling one takes seconds. */
async function populatedFolder(): Promise<{ dataDir: string; file: string }> {
  template ??= (async () => {
    const dir = folder();
    await populate(dir);
    return dir;
  })();
  const dataDir = folder();
  cpSync(await template, dataDir, { recursive: true });
  return { dataDir, file: path.join(dataDir, 'shopdesk.sqlite') };
}

function overwriteMiddle(file: string, bytes: number): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, randomBytes(bytes), 0, bytes, Math.floor(statSync(file).size / 2));
  closeSync(fd);
}

/** The leaf pages of the customers table in key order (dbstat's paths from the root sort that way). */
function customerLeaves(file: string): { pageSize: number; pages: number[] } {
  const raw = new Database(file);
  try {
    const pages = raw
      .prepare("SELECT pageno FROM dbstat WHERE name = 'customers' AND pagetype = 'leaf' ORDER BY path")
      .pluck()
      .all() as number[];
    expect(pages.length).toBeGreaterThan(10);
    return { pageSize: raw.pragma('page_size', { simple: true }) as number, pages };
  } finally {
    raw.close();
  }
}

function overwritePage(file: string, pageSize: number, pageno: number): void {
  const fd = openSync(file, 'r+');
  writeSync(fd, randomBytes(pageSize), 0, pageSize, (pageno - 1) * pageSize);
  closeSync(fd);
}

function expectOneLine(stderr: string, ...parts: string[]): void {
  const lines = stderr.trim().split('\n');
  expect(lines).toHaveLength(1);
  for (const part of parts) expect(lines[0]).toContain(part);
}

// Each test writes a folder of 400 customers and starts processes: minutes on a loaded machine.
describe('a damaged data file is refused in words', { timeout: 180_000 }, () => {
  it('random bytes in the middle of the file: the command refuses it at once, naming the file and the backups', async () => {
    const { dataDir, file } = await populatedFolder();
    overwriteMiddle(file, 64 * 1024);
    await expect(openDatabase(dataDir)).rejects.toThrow(`The data file ${file} is damaged`);
    const command = await cli(dataDir, 'accounts');
    expect(command.code).toBe(1);
    expectOneLine(command.stderr, file, 'damaged');
  });

  it('random bytes over a page the start-up check does not read: the server stops serving the file once its background check has run', async () => {
    const { dataDir, file } = await populatedFolder();
    const leaves = customerLeaves(file);
    overwritePage(file, leaves.pageSize, leaves.pages[Math.floor(leaves.pages.length / 2)]!);
    const server = await startTestServer({ dataDir, integrityCheckDelayMs: 0 });
    try {
      expect((await server.integrityChecked).length).toBeGreaterThan(0);
      const refused = await server.request('GET', '/health');
      expectStatus(refused, 503);
      expect(refused.body.error.message).toContain(`The data file ${file} is damaged`);
      expect(refused.body.error.message).toContain(path.join(dataDir, 'backups'));
    } finally {
      await server.stop();
    }
  });

  it('the newest rows torn (the rightmost page of a table): refused at start', async () => {
    const { dataDir, file } = await populatedFolder();
    const leaves = customerLeaves(file);
    overwritePage(file, leaves.pageSize, leaves.pages.at(-1)!);
    const headless = await serve(dataDir).exited;
    expect(headless.code).toBe(1);
    expectOneLine(headless.stderr, file, 'damaged', path.join(dataDir, 'backups'));
  });

  it('a schema entry overwritten with text that does not parse: damaged, not an unexplained failure', async () => {
    const { dataDir, file } = await populatedFolder();
    // What random bytes over the page holding a trigger's text look like to SQLite: the schema
    // still reads, but one entry is no longer SQL (reported as SQLITE_ERROR, not SQLITE_CORRUPT).
    const raw = new Database(file);
    raw.unsafeMode(true);
    raw.pragma('writable_schema = ON');
    raw
      .prepare(
        "UPDATE sqlite_master SET sql = 'CREATE TRIGGER ' || name || ' ((' WHERE name = 'sync_capture_webhook_endpoints_update'",
      )
      .run();
    raw.close();
    await expect(openDatabase(dataDir)).rejects.toThrow(`The data file ${file} is damaged`);
    const command = await cli(dataDir, 'accounts');
    expect(command.code).toBe(1);
    expectOneLine(command.stderr, file, 'damaged', path.join(dataDir, 'backups'));
  });

  it('a truncated file: one clear line', async () => {
    const { dataDir, file } = await populatedFolder();
    truncateSync(file, Math.floor(statSync(file).size / 3));
    const headless = await serve(dataDir).exited;
    expect(headless.code).toBe(1);
    expectOneLine(headless.stderr, file, path.join(dataDir, 'backups'));
  });

  it('an emptied (zero-length) file is not silently replaced by a new business', async () => {
    const { dataDir, file } = await populatedFolder();
    truncateSync(file, 0);
    const headless = await serve(dataDir).exited;
    expect(headless.code).toBe(1);
    expectOneLine(headless.stderr, `The data file ${file} is empty`, path.join(dataDir, 'backups'));
    expect(statSync(file).size).toBe(0);
  });

  it('a zero-filled file is damaged, not "encrypted": no key can open it', async () => {
    const { dataDir, file } = await populatedFolder();
    writeFileSync(file, Buffer.alloc(statSync(file).size));
    await expect(openDatabase(dataDir)).rejects.toThrow(`The data file ${file} is damaged`);
    await expect(openDatabase(dataDir, { key: { passphrase: 'any key' } })).rejects.toThrow(
      `The data file ${file} is damaged`,
    );
    const headless = await serve(dataDir).exited;
    expect(headless.code).toBe(1);
    expectOneLine(headless.stderr, `The data file ${file} is damaged`, path.join(dataDir, 'backups'));
    expect(headless.stderr).not.toContain('encrypted');
    const command = await cli(dataDir, 'accounts');
    expect(command.code).toBe(1);
    expectOneLine(command.stderr, file, 'damaged');
  });

  it('a data folder that cannot be created: one clear line', async () => {
    const parent = folder();
    writeFileSync(path.join(parent, 'not-a-folder'), 'x');
    const dataDir = path.join(parent, 'not-a-folder', 'data');
    const headless = await serve(dataDir).exited;
    expect(headless.code).toBe(1);
    expectOneLine(headless.stderr, `Shopdesk cannot open or create ${path.join(dataDir, 'shopdesk.sqlite')}`);
    const command = await cli(dataDir, 'accounts');
    expect(command.code).toBe(1);
    expectOneLine(command.stderr, dataDir);
  });

  it('damage only the full check finds: the background check stops the server serving the file', async () => {
    const { dataDir, file } = await populatedFolder();
    // Two indexes of the same shape swap their trees: every page is sound (the quick check passes)
    // but the indexes no longer match the table, which only the full integrity check compares.
    const raw = new Database(file);
    raw.exec(`CREATE TABLE scratch (a TEXT, b TEXT);
      CREATE INDEX scratch_a ON scratch (a);
      CREATE INDEX scratch_b ON scratch (b);`);
    const insert = raw.prepare('INSERT INTO scratch VALUES (?, ?)');
    for (let i = 0; i < 50; i++) insert.run(`a${i}`, `b${i}`);
    const roots = raw
      .prepare("SELECT name, rootpage FROM sqlite_master WHERE name IN ('scratch_a', 'scratch_b')")
      .all() as Array<{ name: string; rootpage: number }>;
    raw.unsafeMode(true);
    raw.pragma('writable_schema = ON');
    const setRoot = raw.prepare('UPDATE sqlite_master SET rootpage = ? WHERE name = ?');
    setRoot.run(roots[1]!.rootpage, roots[0]!.name);
    setRoot.run(roots[0]!.rootpage, roots[1]!.name);
    raw.close();

    const server = await startTestServer({ dataDir, integrityCheckDelayMs: 0 });
    try {
      expect((await server.integrityChecked).length).toBeGreaterThan(0);
      const refused = await server.request('GET', '/health');
      expectStatus(refused, 503);
      expect(refused.body.error).toMatchObject({ type: 'api_error', code: 'database_damaged' });
      expect(refused.body.error.message).toContain(file);
      expect(refused.body.error.message).toContain(path.join(dataDir, 'backups'));
      // The UI itself still loads, to show the message from its first API call.
      expect((await server.request('GET', '/')).headers.get('content-type')).toContain('text/html');
      expect((await server.request('GET', '/api/session')).status).toBe(503);
    } finally {
      await server.stop();
    }
  });

  it('a sound file passes the background check and serves', async () => {
    const { dataDir } = await populatedFolder();
    const server = await startTestServer({ dataDir, integrityCheckDelayMs: 0 });
    try {
      expect(await server.integrityChecked).toEqual([]);
      expect((await server.request('GET', '/health')).status).toBe(200);
    } finally {
      await server.stop();
    }
  });
});
