import SQLite from 'better-sqlite3-multiple-ciphers';
import { Kysely, type Migration, Migrator, SqliteDialect, sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import * as initial from '../../db/migrations/0001_initial';
import * as overviewIndexes from '../../db/migrations/0002_overview_indexes';
import * as webhooks from '../../db/migrations/0003_webhooks';
import * as overviewRollups from '../../db/migrations/0004_overview_rollups';
import type { Database } from '../../db/schema';
import { toIso } from '../../lib/clock';

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

type Db = Kysely<Database>;

function seeded(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  const int = (min: number, max: number) => min + Math.floor(next() * (max - min + 1));
  return { next, int, pick: <T>(items: readonly T[]) => items[int(0, items.length - 1)]! };
}
type Random = ReturnType<typeof seeded>;

const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_MS = 365 * 86_400_000;
const timestamp = (rnd: Random) => toIso(new Date(YEAR_START + Math.floor(rnd.next() * YEAR_MS)));
const date = (rnd: Random) => timestamp(rnd).slice(0, 10);

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

// ---------- raw rows ----------

const ACCOUNTS = ['acct_a', 'acct_b'];
let counter = 0;
const nextId = (prefix: string) => `${prefix}_${String(++counter).padStart(6, '0')}`;

async function insertAccounts(db: Db) {
  for (const id of ACCOUNTS) {
    await db
      .insertInto('accounts')
      .values({ id, plan: 'platform', api_plan: 'none', config: '{}', created_at: '', updated_at: '' })
      .execute();
  }
}

async function insertCustomer(db: Db, rnd: Random, accountId = rnd.pick(ACCOUNTS)) {
  const id = nextId('cus');
  const at = timestamp(rnd);
  await db
    .insertInto('customers')
    .values({
      id,
      account_id: accountId,
      name: id,
      email: `${id}@example.com`,
      email_lower: `${id}@example.com`,
      phone: null,
      address: null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    })
    .execute();
  return { id, accountId };
}

const INVOICE_STATUSES = ['draft', 'sent', 'partially_paid', 'paid', 'void'] as const;

async function insertInvoice(db: Db, rnd: Random) {
  const { id: customerId, accountId } = await insertCustomer(db, rnd);
  const id = nextId('inv');
  const status = rnd.pick(INVOICE_STATUSES);
  const total = rnd.int(100, 500_000);
  const issue = date(rnd);
  await db
    .insertInto('invoices')
    .values({
      id,
      account_id: accountId,
      number: id,
      customer_id: customerId,
      status,
      currency: 'CAD',
      issue_date: issue,
      due_date: issue,
      subtotal_cents: total,
      tax_total_cents: 0,
      total_cents: total,
      amount_paid_cents: 0,
      notes: null,
      quote_id: null,
      job_id: null,
      sent_at: null,
      paid_at: status === 'paid' ? timestamp(rnd) : null,
      voided_at: null,
      created_at: `${issue}T12:00:00Z`,
      updated_at: `${issue}T12:00:00Z`,
    })
    .execute();
  const payments = rnd.int(0, 2);
  for (let p = 0; p < payments; p++) {
    await db
      .insertInto('payments')
      .values({
        id: nextId('pay'),
        account_id: accountId,
        invoice_id: id,
        amount_cents: rnd.int(1, total),
        method: null,
        paid_at: timestamp(rnd),
        created_at: timestamp(rnd),
      })
      .execute();
  }
}

const JOB_STATUSES = ['scheduled', 'in_progress', 'completed', 'cancelled'] as const;

async function insertJob(db: Db, rnd: Random) {
  const { id: customerId, accountId } = await insertCustomer(db, rnd);
  const id = nextId('job');
  const status = rnd.pick(JOB_STATUSES);
  const at = timestamp(rnd);
  await db
    .insertInto('jobs')
    .values({
      id,
      account_id: accountId,
      number: id,
      customer_id: customerId,
      title: 'Work',
      status,
      scheduled_start: at,
      scheduled_end: at,
      address: null,
      price_cents: null,
      notes: null,
      quote_id: null,
      booking_id: null,
      started_at: null,
      completed_at: status === 'completed' ? timestamp(rnd) : null,
      cancelled_at: null,
      created_at: at,
      updated_at: at,
    })
    .execute();
}

const QUOTE_STATUSES = ['draft', 'sent', 'accepted', 'declined', 'converted'] as const;

async function insertQuote(db: Db, rnd: Random) {
  const { id: customerId, accountId } = await insertCustomer(db, rnd);
  const id = nextId('quo');
  const status = rnd.pick(QUOTE_STATUSES);
  const accepted = status === 'accepted' || status === 'converted' ? timestamp(rnd) : null;
  await db
    .insertInto('quotes')
    .values({
      id,
      account_id: accountId,
      number: id,
      customer_id: customerId,
      status,
      currency: 'CAD',
      issue_date: '2026-01-01',
      valid_until: '2026-02-01',
      subtotal_cents: 100,
      tax_total_cents: 0,
      total_cents: 100,
      notes: null,
      sent_at: null,
      accepted_at: accepted,
      declined_at: status === 'declined' ? timestamp(rnd) : null,
      converted_at: status === 'converted' ? timestamp(rnd) : null,
      job_id: null,
      created_at: '2026-01-01T00:00:00Z',
      updated_at: '2026-01-01T00:00:00Z',
    })
    .execute();
}

async function insertRandomRows(db: Db, rnd: Random, count: number) {
  const inserts = [insertInvoice, insertJob, insertQuote, (d: Db, r: Random) => insertCustomer(d, r)];
  for (let i = 0; i < count; i++) await rnd.pick(inserts)(db, rnd);
}

// ---------- random changes, the kinds the domain makes and a few it does not ----------

async function randomRow(
  db: Db,
  rnd: Random,
  table: 'invoices' | 'payments' | 'jobs' | 'quotes' | 'customers',
) {
  const { rows } = await sql<{ id: string }>`SELECT id FROM ${sql.table(table)}`.execute(db);
  return rows.length ? rnd.pick(rows).id : null;
}

const CHANGES: Array<(db: Db, rnd: Random) => Promise<unknown>> = [
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    if (id) await db.updateTable('invoices').set({ status: 'void' }).where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    const total = rnd.int(100, 90_000);
    if (id) await db.updateTable('invoices').set({ total_cents: total }).where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    if (id)
      await db
        .updateTable('invoices')
        .set({ issue_date: date(rnd) })
        .where('id', '=', id)
        .execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    const paidAt = timestamp(rnd);
    if (id)
      await db
        .updateTable('invoices')
        .set({ status: 'paid', paid_at: paidAt })
        .where('id', '=', id)
        .execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    if (id) await db.updateTable('invoices').set({ status: 'partially_paid' }).where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    if (!id) return;
    await db.deleteFrom('payments').where('invoice_id', '=', id).execute();
    await db.deleteFrom('invoices').where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'payments');
    if (id) await db.deleteFrom('payments').where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'payments');
    const change = rnd.next() < 0.5 ? { paid_at: timestamp(rnd) } : { amount_cents: rnd.int(1, 9_000) };
    if (id) await db.updateTable('payments').set(change).where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'jobs');
    const at = timestamp(rnd);
    if (id)
      await db
        .updateTable('jobs')
        .set({ status: 'completed', completed_at: at })
        .where('id', '=', id)
        .execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'jobs');
    const set = rnd.next() < 0.5 ? { status: 'scheduled' as const } : { completed_at: null };
    if (id) await db.updateTable('jobs').set(set).where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'jobs');
    if (id) await db.deleteFrom('jobs').where('id', '=', id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'quotes');
    const at = timestamp(rnd);
    if (id)
      await db
        .updateTable('quotes')
        .set({ status: 'accepted', accepted_at: at })
        .where('id', '=', id)
        .execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'quotes');
    const at = timestamp(rnd);
    if (id)
      await db
        .updateTable('quotes')
        .set({ status: 'converted', converted_at: at })
        .where('id', '=', id)
        .execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'quotes');
    const at = timestamp(rnd);
    if (id)
      await db
        .updateTable('quotes')
        .set({ status: 'declined', declined_at: at })
        .where('id', '=', id)
        .execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'quotes');
    if (id) await db.deleteFrom('quotes').where('id', '=', id).execute();
  },
  async (db, rnd) => {
    // Only customers without records can go; the others are kept by their foreign keys.
    const free = await db
      .selectFrom('customers as c')
      .select('c.id')
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('invoices')
              .select('id')
              .whereRef('customer_id', '=', 'c.id')
              .union(selectFrom('jobs').select('id').whereRef('customer_id', '=', 'c.id'))
              .union(selectFrom('quotes').select('id').whereRef('customer_id', '=', 'c.id')),
          ),
        ),
      )
      .execute();
    if (free.length) await db.deleteFrom('customers').where('id', '=', rnd.pick(free).id).execute();
  },
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'customers');
    if (id)
      await db
        .updateTable('customers')
        .set({ created_at: timestamp(rnd) })
        .where('id', '=', id)
        .execute();
  },
];

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
