import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it } from 'vitest';
import {
  DatabaseKeyError,
  fileCipher,
  keyPragmas,
  openSqliteFile,
  parseDatabaseKey,
} from '../../server/db/cipher';
import { databaseFile } from '../../server/db/database';
import { startServer } from '../../server/index';
import { openDatabase } from '../../server/sync/open';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';

/**
 * A raw key, as the desktop app generates one: a passphrase costs a key derivation at each of the
 * dozens of opens here (Argon2id, tens of milliseconds; PBKDF2 for SQLCipher 4 files, which are
 * probed with both), about a third of the file's CPU. The passphrase's own path is the wrong-key test's.
 */
const HEX_KEY = '5e'.repeat(32);
const KEY = parseDatabaseKey(HEX_KEY);
const PASSPHRASE = 'correct horse battery staple';
// Words that exist only in the customer's record: if they are on disk in clear, the record leaked.
const SECRET = {
  name: 'Zebulon Quackenbush',
  email: 'zebulon@quackenbush.example',
  address: '77 Xylophone Lane',
};

let server: TestServer | undefined;
let folders: string[] = [];
afterEach(async () => {
  await server?.stop();
  server = undefined;
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
  folders = [];
});

function dataFolder(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'shopdesk-encryption-'));
  folders.push(folder);
  return folder;
}

/** Every file under the folder: what a thief who takes the disk reads. */
function filesUnder(folder: string): string[] {
  return readdirSync(folder, { recursive: true, encoding: 'utf8' })
    .map((name) => path.join(folder, name))
    .filter((file) => statSync(file).isFile());
}

function leaks(folder: string): string[] {
  return filesUnder(folder).filter((file) => {
    const bytes = readFileSync(file);
    return Object.values(SECRET).some(
      (text) => bytes.includes(text) || bytes.includes(Buffer.from(text, 'utf16le')),
    );
  });
}

async function addSecretCustomer(s: TestServer) {
  const shop = await s.createAccount();
  const created = await shop.portal('POST', '/customers', {
    body: { name: SECRET.name, email: SECRET.email, address: SECRET.address },
  });
  expectStatus(created, 201);
  return shop;
}

describe('encryption at rest', () => {
  it('leaves no customer data in clear on the disk of a stolen laptop: database, WAL or backups', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir, key: KEY });
    const shop = await addSecretCustomer(server);
    await server.backups.create('manual');
    // Read while the server runs, so the WAL still holds the latest writes.
    expect(filesUnder(dataDir).some((file) => file.endsWith('-wal'))).toBe(true);
    expect(leaks(dataDir)).toEqual([]);
    expect(okBody(await shop.portal('GET', '/customers')).data[0]!.name).toBe(SECRET.name);
    await server.stop();
    server = undefined;
    expect(leaks(dataDir)).toEqual([]);
  });

  it('refuses a wrong key, or none, with a message that says so', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir, key: parseDatabaseKey(PASSPHRASE) });
    await addSecretCustomer(server);
    await server.stop();
    server = undefined;
    const wrong = startServer({ dataDir, port: 0, key: parseDatabaseKey('Tr0ub4dor&3') });
    await expect(wrong).rejects.toThrow(DatabaseKeyError);
    await expect(wrong).rejects.toThrow(/cannot be opened with this key: the key or passphrase is wrong/);
    await expect(startServer({ dataDir, port: 0 })).rejects.toThrow(/is encrypted: give its key/);
  });

  it('writes backups that nothing opens without the key', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir, key: KEY });
    await addSecretCustomer(server);
    const backup = await server.backups.create('manual');
    expect(backup.encrypted).toBe(true);
    expect(() => openSqliteFile(backup.file, null)).toThrow(DatabaseKeyError);
    expect(() =>
      new SQLite(backup.file, { readonly: true }).prepare('select * from customers').all(),
    ).toThrow(/file is not a database/);
    const opened = openSqliteFile(backup.file, KEY, { readonly: true });
    expect(opened.prepare('select name from customers').pluck().all()).toEqual([SECRET.name]);
    opened.close();
  });

  it('encrypts an existing plain database and its backups in place at the first start with a key', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir });
    const shop = await addSecretCustomer(server);
    await server.backups.create('manual');
    await server.stop();
    expect(leaks(dataDir).length).toBeGreaterThan(0);

    server = await startTestServer({ dataDir, key: KEY });
    expect(leaks(dataDir)).toEqual([]);
    const customers = expectOk(
      await server.request('GET', `/api/portal/${shop.clientId}/customers`, { key: shop.portalKey }),
    );
    expect(customers.body.data.map((c) => c.name)).toEqual([SECRET.name]);
    const [backup] = server.backups.list();
    expect(backup).toMatchObject({ encrypted: true, result: 'verified' });
    expect((await server.backups.verify(backup!.id)).result).toBe('verified');
  });

  it('will not encrypt a database in place under a running server', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir });
    await addSecretCustomer(server);
    await expect(openDatabase(dataDir, { key: KEY })).rejects.toThrow(/needs it to itself: stop the server/);
    expect(leaks(dataDir).length).toBeGreaterThan(0);
  });

  it('encrypts new files with AEGIS-256, which SQLCipher 4 does not open, and backs them up the same way', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir, key: KEY });
    await addSecretCustomer(server);
    const backup = await server.backups.create('manual');
    for (const file of [databaseFile(dataDir), backup.file]) {
      expect(fileCipher(file, KEY)).toBe('aegis-256');
      const asSqlcipher = new SQLite(file, { readonly: true });
      for (const pragma of keyPragmas(KEY, 'sqlcipher-4')) asSqlcipher.pragma(pragma);
      expect(() => asSqlcipher.prepare('select * from customers').all()).toThrow(/file is not a database/);
      asSqlcipher.close();
    }
  });

  it('still serves, backs up and restores a database encrypted in SQLCipher 4 format, as it was before', async () => {
    const dataDir = dataFolder();
    server = await startTestServer({ dataDir });
    const shop = await addSecretCustomer(server);
    await server.stop();
    const earlier = new SQLite(databaseFile(dataDir));
    earlier.pragma('journal_mode = DELETE');
    for (const pragma of [`cipher = 'sqlcipher'`, 'legacy = 4', `rekey = 'x''${HEX_KEY}'''`])
      earlier.pragma(pragma);
    earlier.close();

    server = await startTestServer({ dataDir, key: KEY });
    expect(fileCipher(databaseFile(dataDir), KEY)).toBe('sqlcipher-4');
    const customers = () =>
      server!.request('GET', `/api/portal/${shop.clientId}/customers`, { key: shop.portalKey });
    expect(expectOk(await customers()).body.data.map((c) => c.name)).toEqual([SECRET.name]);
    const backup = await server.backups.create('manual');
    expect(backup).toMatchObject({ encrypted: true, result: 'verified' });
    expect(fileCipher(backup.file, KEY)).toBe('sqlcipher-4');
    await server.stop();

    // A new database (AEGIS) in the same folder, then the earlier backup restored over it.
    rmSync(databaseFile(dataDir));
    server = await startTestServer({ dataDir, key: KEY });
    expect(fileCipher(databaseFile(dataDir), KEY)).toBe('aegis-256');
    const restored = await server.restore(backup.id);
    expect(restored.safety_copy).toMatchObject({ result: 'verified' });
    expect(fileCipher(databaseFile(dataDir), KEY)).toBe('sqlcipher-4');
    expect(expectOk(await customers()).body.data.map((c) => c.name)).toEqual([SECRET.name]);
    // The read worker opens the restored file with its own cipher, not the one of the file it replaced.
    const [names] = await server.ctx.readSnapshot!([{ sql: 'select name from customers', parameters: [] }]);
    expect(names).toEqual([{ name: SECRET.name }]);
    expect(leaks(dataDir)).toEqual([]);
  });
});
