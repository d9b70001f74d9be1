import { type Kysely, sql, type Updateable } from 'kysely';
import type { Database } from '../../db/schema';
import { toIso } from '../../lib/clock';

/**
 * Random raw rows for rollups.test.ts, written the way the domain writes them, and random changes
 * that only the rollup triggers see. Seeded, so a failing case replays.
 */

export type Db = Kysely<Database>;

export function seeded(seed: number) {
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
export type Random = ReturnType<typeof seeded>;

const YEAR_START = Date.parse('2026-01-01T00:00:00Z');
const YEAR_MS = 365 * 86_400_000;
const timestamp = (rnd: Random) => toIso(new Date(YEAR_START + Math.floor(rnd.next() * YEAR_MS)));
const date = (rnd: Random) => timestamp(rnd).slice(0, 10);

// ---------- raw rows ----------

export const ACCOUNTS = ['acct_a', 'acct_b'];
let counter = 0;
const nextId = (prefix: string) => `${prefix}_${String(++counter).padStart(6, '0')}`;

export async function insertAccounts(db: Db) {
  for (const id of ACCOUNTS) {
    await db
      .insertInto('accounts')
      .values({ id, plan: 'platform', api_plan: 'none', config: '{}', created_at: '', updated_at: '' })
      .execute();
  }
}

export async function insertCustomer(db: Db, rnd: Random, accountId = rnd.pick(ACCOUNTS)) {
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

export async function insertInvoice(db: Db, rnd: Random) {
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

export async function insertJob(db: Db, rnd: Random) {
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

export async function insertQuote(db: Db, rnd: Random) {
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

export async function insertRandomRows(db: Db, rnd: Random, count: number) {
  const inserts = [insertInvoice, insertJob, insertQuote, (d: Db, r: Random) => insertCustomer(d, r)];
  for (let i = 0; i < count; i++) await rnd.pick(inserts)(db, rnd);
}

// ---------- random changes, the kinds the domain makes and a few it does not ----------

type ChangedTable = 'invoices' | 'payments' | 'jobs' | 'quotes' | 'customers';

export async function randomRow(db: Db, rnd: Random, table: ChangedTable) {
  const { rows } = await sql<{ id: string }>`SELECT id FROM ${sql.table(table)}`.execute(db);
  return rows.length ? rnd.pick(rows).id : null;
}

/** Sets `change()` on a random row of `table`; the change is drawn even when the table is empty. */
async function changeRandomRow<T extends ChangedTable>(
  db: Db,
  rnd: Random,
  table: T,
  change: (rnd: Random) => Updateable<Database[T]>,
) {
  const id = await randomRow(db, rnd, table);
  const set = change(rnd);
  // Kysely cannot type set() over a table name left generic; `change` is checked against T above.
  if (id)
    await db
      .updateTable(table as ChangedTable)
      .set(set as never)
      .where('id', '=', id)
      .execute();
}

async function deleteRandomRow(db: Db, rnd: Random, table: 'payments' | 'jobs' | 'quotes') {
  const id = await randomRow(db, rnd, table);
  if (id) await db.deleteFrom(table).where('id', '=', id).execute();
}

export const CHANGES: Array<(db: Db, rnd: Random) => Promise<unknown>> = [
  (db, rnd) => changeRandomRow(db, rnd, 'invoices', () => ({ status: 'void' as const })),
  (db, rnd) => changeRandomRow(db, rnd, 'invoices', (r) => ({ total_cents: r.int(100, 90_000) })),
  (db, rnd) => changeRandomRow(db, rnd, 'invoices', (r) => ({ issue_date: date(r) })),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'invoices', (r) => ({ status: 'paid' as const, paid_at: timestamp(r) })),
  (db, rnd) => changeRandomRow(db, rnd, 'invoices', () => ({ status: 'partially_paid' as const })),
  async (db, rnd) => {
    const id = await randomRow(db, rnd, 'invoices');
    if (!id) return;
    await db.deleteFrom('payments').where('invoice_id', '=', id).execute();
    await db.deleteFrom('invoices').where('id', '=', id).execute();
  },
  (db, rnd) => deleteRandomRow(db, rnd, 'payments'),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'payments', (r) =>
      r.next() < 0.5 ? { paid_at: timestamp(r) } : { amount_cents: r.int(1, 9_000) },
    ),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'jobs', (r) => ({ status: 'completed' as const, completed_at: timestamp(r) })),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'jobs', (r) =>
      r.next() < 0.5 ? { status: 'scheduled' as const } : { completed_at: null },
    ),
  (db, rnd) => deleteRandomRow(db, rnd, 'jobs'),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'quotes', (r) => ({ status: 'accepted' as const, accepted_at: timestamp(r) })),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'quotes', (r) => ({ status: 'converted' as const, converted_at: timestamp(r) })),
  (db, rnd) =>
    changeRandomRow(db, rnd, 'quotes', (r) => ({ status: 'declined' as const, declined_at: timestamp(r) })),
  (db, rnd) => deleteRandomRow(db, rnd, 'quotes'),
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
  (db, rnd) => changeRandomRow(db, rnd, 'customers', (r) => ({ created_at: timestamp(r) })),
];
