import SQLite from 'better-sqlite3-multiple-ciphers';
import { Kysely, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { insertCompiledOnce, runCompiledOnce } from './compiled-once';
import type { Database } from './schema';

describe('runCompiledOnce', () => {
  let sqlite: SQLite.Database;
  let db: Kysely<Database>;
  beforeEach(() => {
    sqlite = new SQLite(':memory:');
    sqlite.exec(`CREATE TABLE mail_messages (id TEXT PRIMARY KEY, status TEXT, next_attempt_at TEXT);
      INSERT INTO mail_messages VALUES ('m1', 'queued', '2026-01-01'), ('m2', 'queued', '2026-03-01'),
        ('m3', 'sent', '2026-01-01'), ('m4', 'sending', '2026-02-01');`);
    db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  });
  afterEach(() => db.destroy());

  const due = (before: string, limit: number) =>
    runCompiledOnce(db, 'test: due messages', { before, limit }, (v) =>
      db
        .selectFrom('mail_messages')
        .select('id')
        .where('status', 'in', ['queued', 'sending'])
        .where('next_attempt_at', '<=', v.before)
        .orderBy('id')
        .limit(v.limit),
    );

  it('runs each call with its own values and keeps the constants the query was built with', async () => {
    expect((await due('2026-01-15', 10)).map((r) => r.id)).toEqual(['m1']);
    expect((await due('2026-02-15', 10)).map((r) => r.id)).toEqual(['m1', 'm4']);
    expect((await due('2026-12-31', 2)).map((r) => r.id)).toEqual(['m1', 'm2']);
  });

  it('builds the query once per shape', async () => {
    let builds = 0;
    const run = (id: string) =>
      runCompiledOnce(db, 'test: message by id', { id }, (v) => {
        builds++;
        return db.selectFrom('mail_messages').select('status').where('id', '=', v.id);
      });
    expect(await run('m3')).toEqual([{ status: 'sent' }]);
    expect(await run('m4')).toEqual([{ status: 'sending' }]);
    expect(builds).toBe(1);
  });

  it('inserts each call its own rows, one shape per row count and columns, an undefined column left to its default', async () => {
    sqlite.exec('CREATE TABLE counters (account_id TEXT, name TEXT, value INTEGER DEFAULT 7)');
    await insertCompiledOnce(db, 'counters', [{ account_id: 'a', name: 'x', value: 1 }]);
    await insertCompiledOnce(db, 'counters', [{ account_id: 'b', name: 'y', value: 2 }]);
    await insertCompiledOnce(db, 'counters', [
      { account_id: 'c', name: 'z', value: undefined as unknown as number },
      { account_id: 'd', name: 'w', value: undefined as unknown as number },
    ]);
    expect(sqlite.prepare('SELECT * FROM counters ORDER BY account_id').all()).toEqual([
      { account_id: 'a', name: 'x', value: 1 },
      { account_id: 'b', name: 'y', value: 2 },
      { account_id: 'c', name: 'z', value: 7 },
      { account_id: 'd', name: 'w', value: 7 },
    ]);
  });
});
