import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Kysely, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, describe, expect, it } from 'vitest';
import { openSqliteFile } from './cipher';
import { databaseFile, migrationProvider, openDatabase } from './database';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

const NOW = '2026-11-20T10:00:00.000Z';

describe('migrations 0014 and 0015: customers without e-mail, and their places', () => {
  it('keeps every customer and what refers to them, with their indexes and triggers', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-0014-'));
    folders.push(dataDir);
    // A database the previous release left, with a customer, a tag, a note and a job.
    const sqlite = openSqliteFile(databaseFile(dataDir), null);
    sqlite.pragma('foreign_keys = ON');
    const old = new Kysely<unknown>({ dialect: new SqliteDialect({ database: sqlite }) });
    await new Migrator({ db: old, provider: migrationProvider }).migrateTo('0011_hub_webhooks');
    sqlite
      .prepare(
        `INSERT INTO accounts (id, plan, api_plan, config, created_at, updated_at)
         VALUES ('acc_1', 'platform', 'growth', '{}', ?, ?)`,
      )
      .run(NOW, NOW);
    sqlite
      .prepare(
        `INSERT INTO customers (id, account_id, name, email, email_lower, phone, address, created_at, updated_at)
         VALUES ('cus_1', 'acc_1', 'Ada', 'Ada@example.com', 'ada@example.com', '416 555 0100', '12 Main St', ?, ?)`,
      )
      .run(NOW, NOW);
    sqlite.prepare(`INSERT INTO customer_tags (customer_id, tag) VALUES ('cus_1', 'vip')`).run();
    sqlite
      .prepare(
        `INSERT INTO customer_notes (id, customer_id, text, created_at) VALUES ('note_1', 'cus_1', 'Dog', ?)`,
      )
      .run(NOW);
    sqlite
      .prepare(
        `INSERT INTO jobs (id, account_id, number, customer_id, title, status, created_at, updated_at)
         VALUES ('job_1', 'acc_1', 'J-0001', 'cus_1', 'Clean', 'unscheduled', ?, ?)`,
      )
      .run(NOW, NOW);
    const schemaOf = () =>
      sqlite
        .prepare(
          `SELECT type, name FROM sqlite_master WHERE tbl_name = 'customers' AND type IN ('index', 'trigger') ORDER BY name`,
        )
        .all();
    const before = schemaOf();
    expect(before.length).toBeGreaterThan(2);
    await old.destroy();

    const database = await openDatabase(dataDir);
    try {
      const { db } = database;
      expect(await db.selectFrom('customers').selectAll().execute()).toEqual([
        {
          id: 'cus_1',
          account_id: 'acc_1',
          name: 'Ada',
          email: 'Ada@example.com',
          email_lower: 'ada@example.com',
          phone: '416 555 0100',
          address: '12 Main St',
          created_at: NOW,
          updated_at: NOW,
          deleted_at: null,
        },
      ]);
      // Migration 0015: the address is the customer's default place, and stays as their billing address.
      expect(
        await db
          .selectFrom('properties')
          .select(['customer_id', 'street', 'is_default', 'status', 'created_at'])
          .execute(),
      ).toEqual([
        { customer_id: 'cus_1', street: '12 Main St', is_default: 1, status: 'active', created_at: NOW },
      ]);
      expect(await db.selectFrom('customer_tags').selectAll().execute()).toEqual([
        { customer_id: 'cus_1', tag: 'vip' },
      ]);
      expect((await db.selectFrom('jobs').select('customer_id').execute())[0]!.customer_id).toBe('cus_1');
      const after = database.sqlite
        .prepare(
          `SELECT type, name FROM sqlite_master WHERE tbl_name = 'customers' AND type IN ('index', 'trigger') AND name NOT LIKE 'sync_capture_%' AND name NOT LIKE 'record_history_%' AND name <> 'customers_name_lower' ORDER BY name`,
        )
        .all();
      // customers_name_lower comes with a later migration (0020, customer imports).
      // Capture and history triggers are made anew from the live schema at every start.
      expect(after).toEqual(before.filter((r) => !(r as { name: string }).name.startsWith('sync_capture_')));

      // Two customers without e-mail fit; an e-mail stays unique; references are still checked.
      const insert = (id: string, email: string | null) =>
        db
          .insertInto('customers')
          .values({
            id,
            account_id: 'acc_1',
            name: 'Walk-in',
            email,
            email_lower: email?.toLowerCase() ?? null,
            phone: '1',
            address: null,
            created_at: NOW,
            updated_at: NOW,
            deleted_at: null,
          })
          .execute();
      await insert('cus_2', null);
      await insert('cus_3', null);
      await expect(insert('cus_4', 'ADA@example.com')).rejects.toThrow(/UNIQUE/);
      await expect(
        sql`INSERT INTO customer_tags (customer_id, tag) VALUES ('cus_nobody', 'x')`.execute(db),
      ).rejects.toThrow(/FOREIGN KEY/);
      expect(database.sqlite.pragma('foreign_key_check')).toEqual([]);
    } finally {
      await database.close();
    }
  });
});
