import SQLite from 'better-sqlite3-multiple-ciphers';
import { Kysely, type Migration, Migrator, SqliteDialect } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as initial from '../../db/migrations/0001_initial';
import * as overviewIndexes from '../../db/migrations/0002_overview_indexes';
import * as webhooks from '../../db/migrations/0003_webhooks';
import * as overviewRollups from '../../db/migrations/0004_overview_rollups';
import type { Database } from '../../db/schema';
import { toIso } from '../../lib/clock';
import {
  CHANGES,
  type Db,
  insertAccounts,
  insertCustomer,
  insertRandomRows,
  seeded,
} from './rollups-rows.test-support';

/**
 * The rollup tables against a recomputation from the raw rows, written here without SQL: after the
 * migration's backfill of rows written before it existed, and after random inserts, updates and
 * deletes that only the triggers see.
 */

const MIGRATIONS: Record<string, Migration> = {
  '0001_initial': initial,
  '0002_overview_indexes': overviewIndexes,
  '0003_webhooks': webhooks,
  '0004_overview_rollups': overviewRollups,
};

// ---------- the expected rollups, computed in JS from the raw rows ----------

const SLOT_MS = 15 * 60_000;
const slotOf = (ts: string) => toIso(new Date(Math.floor(Date.parse(ts) / SLOT_MS) * SLOT_MS));
const dayNumber = (d: string) => Date.parse(`${d.slice(0, 10)}T00:00:00Z`) / 86_400_000;

type Sums = Record<string, number>;

async function expected(db: Db) {
  const slots = new Map<string, Sums>();
  const days = new Map<string, Sums>();
  const add = (map: Map<string, Sums>, key: string, values: Sums) => {
    const sums = map.get(key) ?? {};
    for (const [k, v] of Object.entries(values)) sums[k] = (sums[k] ?? 0) + v;
    map.set(key, sums);
  };
  for (const p of await db.selectFrom('payments').selectAll().execute()) {
    add(slots, `${p.account_id} ${slotOf(p.paid_at)}`, { payments_cents: p.amount_cents, payments: 1 });
  }
  for (const i of await db.selectFrom('invoices').selectAll().execute()) {
    if (i.status !== 'void') {
      add(days, `${i.account_id} ${i.issue_date}`, { invoiced_cents: i.total_cents, invoices: 1 });
    }
    if (i.status === 'paid' && i.paid_at) {
      add(slots, `${i.account_id} ${slotOf(i.paid_at)}`, {
        invoices_paid: 1,
        invoice_days_to_pay: dayNumber(i.paid_at) - dayNumber(i.issue_date),
      });
    }
  }
  for (const j of await db.selectFrom('jobs').selectAll().execute()) {
    if (j.status === 'completed' && j.completed_at) {
      add(slots, `${j.account_id} ${slotOf(j.completed_at)}`, { jobs_completed: 1 });
    }
  }
  for (const c of await db.selectFrom('customers').selectAll().execute()) {
    add(slots, `${c.account_id} ${slotOf(c.created_at)}`, { new_customers: 1 });
  }
  for (const q of await db.selectFrom('quotes').selectAll().execute()) {
    const decided = q.accepted_at ?? q.converted_at ?? q.declined_at;
    if (!decided || !['accepted', 'converted', 'declined'].includes(q.status)) continue;
    const accepted = q.status === 'declined' ? 0 : 1;
    add(slots, `${q.account_id} ${slotOf(decided)}`, {
      quotes_accepted: accepted,
      quotes_declined: 1 - accepted,
    });
  }
  return { slots, days };
}

const SLOT_COLUMNS = [
  'payments_cents',
  'payments',
  'invoices_paid',
  'invoice_days_to_pay',
  'jobs_completed',
  'new_customers',
  'quotes_accepted',
  'quotes_declined',
];
const DAY_COLUMNS = ['invoiced_cents', 'invoices'];

/** Keyed rows with every measure spelled out; rows that hold nothing (all taken back) left out. */
function normalise(map: Map<string, Sums>, columns: string[]): Record<string, Sums> {
  const out: Record<string, Sums> = {};
  for (const [key, sums] of map) {
    const row = Object.fromEntries(columns.map((c) => [c, sums[c] ?? 0]));
    if (Object.values(row).some((v) => v !== 0)) out[key] = row;
  }
  return out;
}

async function expectRollupsRight(db: Db) {
  const want = await expected(db);
  const slots = await db.selectFrom('overview_slots').selectAll().execute();
  const days = await db.selectFrom('overview_days').selectAll().execute();
  const got = {
    slots: new Map(slots.map((r) => [`${r.account_id} ${r.slot}`, r as unknown as Sums])),
    days: new Map(days.map((r) => [`${r.account_id} ${r.day}`, r as unknown as Sums])),
  };
  expect(normalise(got.slots, SLOT_COLUMNS)).toEqual(normalise(want.slots, SLOT_COLUMNS));
  expect(normalise(got.days, DAY_COLUMNS)).toEqual(normalise(want.days, DAY_COLUMNS));
  return got;
}

// ---------- the tests ----------

let sqlite: SQLite.Database;
let db: Db;
let migrator: Migrator;

beforeEach(() => {
  sqlite = new SQLite(':memory:');
  sqlite.pragma('foreign_keys = ON');
  db = new Kysely<Database>({ dialect: new SqliteDialect({ database: sqlite }) });
  migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
});
afterEach(() => db.destroy());

async function migrate(to?: string) {
  const { error, results } = to ? await migrator.migrateTo(to) : await migrator.migrateToLatest();
  expect(error).toBeUndefined();
  expect(results?.every((r) => r.status === 'Success')).toBe(true);
}

describe('overview rollups', () => {
  it('backfills the rows written before the migration', async () => {
    await migrate('0003_webhooks');
    await insertAccounts(db);
    await insertRandomRows(db, seeded(1), 300);
    await migrate();
    const got = await expectRollupsRight(db);
    expect(got.slots.size).toBeGreaterThan(100);
    expect(got.days.size).toBeGreaterThan(50);
  });

  it('follows random inserts, updates and deletes', async () => {
    await migrate('0003_webhooks');
    await insertAccounts(db);
    const rnd = seeded(7);
    await insertRandomRows(db, rnd, 150);
    await migrate();
    for (let round = 0; round < 4; round++) {
      await insertRandomRows(db, rnd, 40);
      for (let i = 0; i < 120; i++) await rnd.pick(CHANGES)(db, rnd);
      await expectRollupsRight(db);
    }
  });

  it('keys a timestamp to the 15-minute slot it falls in', async () => {
    await migrate();
    await insertAccounts(db);
    const rnd = seeded(3);
    const { id } = await insertCustomer(db, rnd, 'acct_a');
    const cases = [
      ['2026-03-08T05:14:59Z', '2026-03-08T05:00:00Z'],
      ['2026-03-08T05:15:00Z', '2026-03-08T05:15:00Z'],
      ['2026-03-08T05:29:59Z', '2026-03-08T05:15:00Z'],
      ['2026-03-08T05:45:00Z', '2026-03-08T05:45:00Z'],
      ['2026-03-08T05:30:00Z', '2026-03-08T05:30:00Z'],
      ['2026-12-31T23:59:59Z', '2026-12-31T23:45:00Z'],
      ['2026-07-01T00:14:07Z', '2026-07-01T00:00:00Z'],
    ];
    for (const [at, slot] of cases) {
      await db.updateTable('customers').set({ created_at: at! }).where('id', '=', id).execute();
      const rows = await db
        .selectFrom('overview_slots')
        .select(['slot'])
        .where('new_customers', '>', 0)
        .execute();
      expect(rows).toEqual([{ slot }]);
    }
  });

  it('rolls back with the transaction that wrote the row', async () => {
    await migrate();
    await insertAccounts(db);
    const rnd = seeded(5);
    await expect(
      db.transaction().execute(async (tx) => {
        await insertCustomer(tx, rnd, 'acct_a');
        throw new Error('abandoned');
      }),
    ).rejects.toThrow('abandoned');
    expect(await db.selectFrom('overview_slots').selectAll().execute()).toEqual([]);
  });
});
