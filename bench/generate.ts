import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type SQLite from 'better-sqlite3-multiple-ciphers';
import { createContext } from '../server/context';
import { createAccount } from '../server/domain/accounts';
import { manualClock, toIso } from '../server/lib/clock';
import { newId } from '../server/lib/ids';
import { openDatabase } from '../server/sync/open';

/**
 * The benchmark's data set: one busy account, written with prepared statements in large
 * transactions straight through the better-sqlite3 handle. It is cached under bench/.data/<version>;
 * bump DATA_VERSION whenever the shape or the amounts change.
 */

export const DATA_VERSION = 'v3';
/** "Now" for the generated history; the bench server's clock starts here. */
export const DATA_NOW = '2026-06-15T15:00:00Z';

/**
 * BENCH_SCALE (e.g. 0.01) shrinks the account, in its own cache folder, so a case can be written
 * and tried in seconds; published figures use the full size.
 */
const SCALE = Number(process.env.BENCH_SCALE ?? 1);

/** The account's size at a scale (1: 100,000 customers); a case may ask for another scale than the run's. */
function sizesAt(scale: number) {
  const scaled = (n: number) => Math.max(1, Math.round(n * scale));
  return {
    customers: scaled(100_000),
    invoices: scaled(500_000),
    jobs: scaled(50_000),
    quotes: scaled(20_000),
    reviews: scaled(10_000),
    teamMembers: 6,
  };
}

const HISTORY_DAYS = 3 * 365;
const DAY_MS = 86_400_000;
const METHODS = ['card', 'cash', 'e-transfer', 'cheque'];
const SERVICES = [
  'Deep clean',
  'Window wash',
  'Carpet shampoo',
  'Move-out clean',
  'Gutter cleaning',
  'Oven clean',
];

export interface BenchData {
  dataDir: string;
  accountId: string;
  counts: Record<string, number>;
  generatedInSeconds: number;
}

/** A small deterministic generator, so every machine benchmarks the same rows. */
function random(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
  return {
    next,
    int: (min: number, max: number) => min + Math.floor(next() * (max - min + 1)),
    pick: <T>(items: T[]) => items[Math.floor(next() * items.length)]!,
  };
}

const iso = (ms: number) => toIso(new Date(ms));
const date = (ms: number) => iso(ms).slice(0, 10);

/** Times spread evenly over the history window, ascending, so ids (time-sortable) follow creation order. */
function timeline(count: number, startMs: number, endMs: number): number[] {
  const step = (endMs - startMs) / count;
  return Array.from({ length: count }, (_, i) => Math.floor(startMs + i * step));
}

function insertAll(sqlite: SQLite.Database, accountId: string, sizes: ReturnType<typeof sizesAt>) {
  const rng = random(42);
  const now = Date.parse(DATA_NOW);
  const start = now - HISTORY_DAYS * DAY_MS;

  const customers: string[] = [];
  const insertCustomer = sqlite.prepare(
    `insert into customers (id, account_id, name, email, email_lower, phone, address, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertTag = sqlite.prepare('insert into customer_tags (customer_id, tag) values (?, ?)');
  for (const [i, at] of timeline(sizes.customers, start, now).entries()) {
    const id = newId('cus', at);
    const email = `customer${i}@example.com`;
    insertCustomer.run(
      id,
      accountId,
      `Customer ${i}`,
      email,
      email,
      `555-${String(i).padStart(7, '0')}`,
      `${i} Main St`,
      iso(at),
      iso(at),
    );
    if (i % 10 === 0) insertTag.run(id, rng.pick(['vip', 'weekly', 'commercial']));
    customers.push(id);
  }

  const members: string[] = [];
  const insertMember = sqlite.prepare(
    'insert into team_members (id, account_id, name, created_at) values (?, ?, ?, ?)',
  );
  for (let i = 0; i < sizes.teamMembers; i++) {
    const id = newId('tm', start);
    insertMember.run(id, accountId, `Member ${i + 1}`, iso(start));
    members.push(id);
  }

  const insertInvoice = sqlite.prepare(
    `insert into invoices (id, account_id, number, customer_id, status, currency, issue_date, due_date,
       subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, sent_at, paid_at, voided_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'CAD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertLine = sqlite.prepare(
    `insert into document_lines (document_id, position, description, quantity, unit_price, amount_cents)
     values (?, ?, ?, ?, ?, ?)`,
  );
  const insertTax = sqlite.prepare(
    'insert into document_taxes (document_id, position, name, rate, amount_cents) values (?, ?, ?, ?, ?)',
  );
  const insertPayment = sqlite.prepare(
    `insert into payments (id, account_id, invoice_id, amount_cents, method, paid_at, created_at)
     values (?, ?, ?, ?, ?, ?, ?)`,
  );
  const payments: Array<{ invoiceId: string; cents: number; paidAt: number }> = [];
  for (const [i, at] of timeline(sizes.invoices, start, now).entries()) {
    const id = newId('inv', at);
    let subtotal = 0;
    const lineCount = rng.int(1, 4);
    for (let p = 0; p < lineCount; p++) {
      const quantity = rng.int(1, 4);
      const unitCents = rng.int(20, 400) * 100;
      insertLine.run(
        id,
        p,
        rng.pick(SERVICES),
        String(quantity),
        String(unitCents / 100),
        quantity * unitCents,
      );
      subtotal += quantity * unitCents;
    }
    const gst = Math.round(subtotal * 0.05);
    insertTax.run(id, 0, 'GST', '0.05', gst);
    let taxTotal = gst;
    if (i % 2 === 0) {
      const pst = Math.round(subtotal * 0.07);
      insertTax.run(id, 1, 'PST', '0.07', pst);
      taxTotal += pst;
    }
    const total = subtotal + taxTotal;
    const issue = date(at);
    const due = date(at + 30 * DAY_MS);
    const roll = rng.next();
    const paidAt = Math.min(at + rng.int(0, 45) * DAY_MS + rng.int(0, 86_399) * 1000, now - 60_000);
    let status = 'paid';
    let paid = total;
    if (roll < 0.01) status = 'void';
    else if (roll < 0.05 || paidAt >= now - 60_000) status = 'sent';
    else if (roll < 0.09) status = 'partially_paid';
    if (status === 'sent' || status === 'void') paid = 0;
    if (status === 'partially_paid') paid = Math.floor(total / 2);
    if (paid > 0) payments.push({ invoiceId: id, cents: paid, paidAt });
    insertInvoice.run(
      id,
      accountId,
      `INV-${String(i + 1).padStart(6, '0')}`,
      customers[rng.int(0, customers.length - 1)],
      status,
      issue,
      due,
      subtotal,
      taxTotal,
      total,
      paid,
      iso(at),
      status === 'paid' ? iso(paidAt) : null,
      status === 'void' ? iso(at) : null,
      iso(at),
      iso(at),
    );
  }
  // Payment ids are minted after the invoices' so they sort by payment time, as they would live.
  payments.sort((a, b) => a.paidAt - b.paidAt);
  for (const { invoiceId, cents, paidAt } of payments) {
    insertPayment.run(
      newId('pay', paidAt),
      accountId,
      invoiceId,
      cents,
      rng.pick(METHODS),
      iso(paidAt),
      iso(paidAt),
    );
  }

  const insertJob = sqlite.prepare(
    `insert into jobs (id, account_id, number, customer_id, title, status, scheduled_start, scheduled_end,
       address, price_cents, completed_at, cancelled_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertAssignee = sqlite.prepare('insert into job_assignees (job_id, member_id) values (?, ?)');
  for (const [i, at] of timeline(sizes.jobs, start, now + 14 * DAY_MS).entries()) {
    const id = newId('job', Math.min(at, now));
    const end = at + 2 * 3_600_000;
    const past = end < now;
    const status = past ? (rng.next() < 0.95 ? 'completed' : 'cancelled') : 'scheduled';
    insertJob.run(
      id,
      accountId,
      `J-${String(i + 1).padStart(6, '0')}`,
      customers[rng.int(0, customers.length - 1)],
      rng.pick(SERVICES),
      status,
      iso(at),
      iso(end),
      `${i} Job Rd`,
      rng.int(80, 600) * 100,
      status === 'completed' ? iso(end) : null,
      status === 'cancelled' ? iso(at) : null,
      iso(Math.min(at, now)),
      iso(Math.min(at, now)),
    );
    insertAssignee.run(id, members[i % members.length]);
    if (i % 3 === 0) insertAssignee.run(id, members[(i + 1) % members.length]);
  }

  const insertQuote = sqlite.prepare(
    `insert into quotes (id, account_id, number, customer_id, status, currency, issue_date, valid_until,
       subtotal_cents, tax_total_cents, total_cents, sent_at, accepted_at, declined_at, converted_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'CAD', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const [i, at] of timeline(sizes.quotes, start, now).entries()) {
    const id = newId('quo', at);
    const subtotal = rng.int(100, 3000) * 100;
    const tax = Math.round(subtotal * 0.05);
    const decidedAt = Math.min(at + rng.int(1, 20) * DAY_MS, now - 60_000);
    const roll = rng.next();
    const status =
      decidedAt >= now - 60_000
        ? 'sent'
        : roll < 0.4
          ? 'accepted'
          : roll < 0.6
            ? 'converted'
            : roll < 0.9
              ? 'declined'
              : 'sent';
    const accepted = status === 'accepted' || status === 'converted' ? iso(decidedAt) : null;
    insertQuote.run(
      id,
      accountId,
      `Q-${String(i + 1).padStart(6, '0')}`,
      customers[rng.int(0, customers.length - 1)],
      status,
      date(at),
      date(at + 30 * DAY_MS),
      subtotal,
      tax,
      subtotal + tax,
      iso(at),
      accepted,
      status === 'declined' ? iso(decidedAt) : null,
      status === 'converted' ? iso(decidedAt + DAY_MS) : null,
      iso(at),
      iso(at),
    );
  }

  const insertReview = sqlite.prepare(
    `insert into reviews (id, account_id, customer_id, rating, comment, source, received_at, created_at, updated_at)
     values (?, ?, ?, ?, ?, 'google', ?, ?, ?)`,
  );
  for (const at of timeline(sizes.reviews, start, now)) {
    insertReview.run(
      newId('rev', at),
      accountId,
      customers[rng.int(0, customers.length - 1)],
      rng.int(3, 5),
      'Great work',
      iso(at),
      iso(at),
      iso(at),
    );
  }
}

function count(sqlite: SQLite.Database, table: string): number {
  return (sqlite.prepare(`select count(*) as n from ${table}`).get() as { n: number }).n;
}

const TABLES = [
  'customers',
  'customer_tags',
  'team_members',
  'jobs',
  'job_assignees',
  'quotes',
  'invoices',
  'document_lines',
  'document_taxes',
  'payments',
  'reviews',
];

/** The cached data set, generated first when this version has none (or a half-written one). */
export async function ensureBenchData(
  root: string,
  log: (line: string) => void,
  scale = SCALE,
): Promise<BenchData> {
  const dataDir = path.join(root, scale === 1 ? DATA_VERSION : `${DATA_VERSION}-x${scale}`);
  const metaFile = path.join(dataDir, 'meta.json');
  if (existsSync(metaFile)) return JSON.parse(readFileSync(metaFile, 'utf8')) as BenchData;
  rmSync(dataDir, { recursive: true, force: true });
  mkdirSync(dataDir, { recursive: true });
  log(`Generating the benchmark data set ${DATA_VERSION} in ${dataDir} (once; later runs reuse it)…`);
  const began = performance.now();
  const database = await openDatabase(dataDir);
  try {
    const ctx = createContext(
      database.db,
      manualClock(new Date(Date.parse(DATA_NOW) - HISTORY_DAYS * DAY_MS - DAY_MS)),
    );
    const account = await createAccount(ctx, {
      businessName: 'Bench Cleaning Co',
      plan: 'platform',
      apiPlan: 'growth',
    });
    const { sqlite } = database;
    // A throwaway bulk load: durability per statement buys nothing here.
    sqlite.pragma('synchronous = OFF');
    sqlite.transaction(() => insertAll(sqlite, account.id, sizesAt(scale)))();
    sqlite.exec('ANALYZE');
    sqlite.pragma('wal_checkpoint(TRUNCATE)');
    const counts = Object.fromEntries(TABLES.map((t) => [t, count(sqlite, t)]));
    const data: BenchData = {
      dataDir,
      accountId: account.id,
      counts,
      generatedInSeconds: Math.round((performance.now() - began) / 100) / 10,
    };
    writeFileSync(metaFile, JSON.stringify(data, null, 2));
    log(`Generated in ${data.generatedInSeconds} s.`);
    return data;
  } finally {
    await database.close();
  }
}
