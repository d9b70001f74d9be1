import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type OpenedDatabase, openDatabase } from '../sync/open';
import { parseDatabaseKey } from './cipher';
import { ReadWorker } from './read-worker';

const KEY = parseDatabaseKey('correct horse battery staple');

let dir: string;
let database: OpenedDatabase;
let worker: ReadWorker;

beforeEach(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-read-worker-'));
  database = await openDatabase(dir, { key: KEY });
  worker = new ReadWorker(database.file, KEY);
});

afterEach(async () => {
  await worker.stop();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const accounts = { sql: 'SELECT id FROM accounts ORDER BY id', parameters: [] };
const addAccount = (id: string) =>
  database.sqlite
    .prepare(
      `INSERT INTO accounts (id, plan, api_plan, config, created_at, updated_at)
       VALUES (?, 'platform', 'growth', '{}', '2026-11-24T09:00:00Z', '2026-11-24T09:00:00Z')`,
    )
    .run(id);

describe('the read worker', () => {
  it('reads an encrypted file on its own connection, seeing what the server committed', async () => {
    addAccount('acct_a');
    const [rows, count] = await worker.read([
      accounts,
      { sql: 'SELECT count(*) AS n FROM accounts WHERE id > ?', parameters: [''] },
    ]);
    expect(rows).toEqual([{ id: 'acct_a' }]);
    expect(count).toEqual([{ n: 1 }]);
    addAccount('acct_b');
    expect((await worker.read([accounts]))[0]).toEqual([{ id: 'acct_a' }, { id: 'acct_b' }]);
  });

  it('answers a failing statement with its error, and opens the file again after a stop', async () => {
    await expect(worker.read([{ sql: 'SELECT * FROM no_such_table', parameters: [] }])).rejects.toThrow(
      /no such table/,
    );
    await worker.stop();
    addAccount('acct_c');
    expect((await worker.read([accounts]))[0]).toEqual([{ id: 'acct_c' }]);
  });
});
