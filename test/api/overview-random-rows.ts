import type { Db } from '../../server/db/database';
import { toIso } from '../../server/lib/clock';
import { type IdPrefix, newId } from '../../server/lib/ids';
import { addDays, dateInZone, startOfDay } from '../../shared/time-zone';

/**
 * Random rows for overview-rollups.test.ts, written straight into the tables: a year of customers,
 * invoices, payments, jobs and quotes whose times mostly fall within 40 minutes of a local midnight.
 */

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

const HISTORY_START = '2025-11-01';
const HISTORY_DAYS = 380;

/** Writes random rows straight into the tables; most times fall within 40 minutes of a local midnight. */
export async function seedRandom(db: Db, accountId: string, timeZone: string, seed: number) {
  const rnd = seeded(seed);
  const when = () => {
    const day = addDays(HISTORY_START, rnd.int(0, HISTORY_DAYS));
    const seconds = rnd.next() < 0.75 ? rnd.int(-2_400, 2_400) : rnd.int(0, 86_399);
    return toIso(new Date(startOfDay(day, timeZone).getTime() + seconds * 1000));
  };
  let serial = 0;
  const id = (prefix: IdPrefix) => newId(prefix, Date.parse('2026-01-01T00:00:00Z') + ++serial);
  const customers: string[] = [];
  for (let i = 0; i < 120; i++) {
    const at = when();
    const row = {
      id: id('cus'),
      account_id: accountId,
      name: `Customer ${i}`,
      email: `c${i}@example.com`,
      email_lower: `c${i}@example.com`,
      phone: null,
      address: null,
      created_at: at,
      updated_at: at,
      deleted_at: null,
    };
    await db.insertInto('customers').values(row).execute();
    customers.push(row.id);
  }
  const statuses = ['draft', 'sent', 'partially_paid', 'paid', 'void'] as const;
  for (let i = 0; i < 250; i++) {
    const paidAt = when();
    const status = rnd.pick(statuses);
    const total = rnd.int(1_000, 90_000);
    const issue = addDays(dateInZone(new Date(paidAt), timeZone), -rnd.int(0, 45));
    const invoice = {
      id: id('inv'),
      account_id: accountId,
      number: `INV-${i}`,
      customer_id: rnd.pick(customers),
      status,
      currency: 'CAD',
      issue_date: issue,
      due_date: addDays(issue, 30),
      subtotal_cents: total,
      tax_total_cents: 0,
      total_cents: total,
      amount_paid_cents: status === 'paid' ? total : 0,
      notes: null,
      quote_id: null,
      job_id: null,
      sent_at: null,
      paid_at: status === 'paid' ? paidAt : null,
      voided_at: null,
      created_at: `${issue}T12:00:00Z`,
      updated_at: `${issue}T12:00:00Z`,
    };
    await db.insertInto('invoices').values(invoice).execute();
    if (status === 'paid' || status === 'partially_paid') {
      await db
        .insertInto('payments')
        .values({
          id: id('pay'),
          account_id: accountId,
          invoice_id: invoice.id,
          amount_cents: status === 'paid' ? total : rnd.int(1, total - 1),
          method: 'card',
          paid_at: paidAt,
          created_at: paidAt,
        })
        .execute();
    }
  }
  for (let i = 0; i < 150; i++) {
    const at = when();
    const completed = rnd.next() < 0.7;
    await db
      .insertInto('jobs')
      .values({
        id: id('job'),
        account_id: accountId,
        number: `J-${i}`,
        customer_id: rnd.pick(customers),
        title: 'Job',
        status: completed ? 'completed' : 'scheduled',
        scheduled_start: at,
        scheduled_end: at,
        address: null,
        price_cents: null,
        notes: null,
        quote_id: null,
        booking_id: null,
        started_at: null,
        completed_at: completed ? at : null,
        cancelled_at: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  const quoteStatuses = ['sent', 'accepted', 'declined', 'converted'] as const;
  for (let i = 0; i < 120; i++) {
    const status = rnd.pick(quoteStatuses);
    const at = when();
    await db
      .insertInto('quotes')
      .values({
        id: id('quo'),
        account_id: accountId,
        number: `Q-${i}`,
        customer_id: rnd.pick(customers),
        status,
        currency: 'CAD',
        issue_date: HISTORY_START,
        valid_until: addDays(HISTORY_START, 30),
        subtotal_cents: 100,
        tax_total_cents: 0,
        total_cents: 100,
        notes: null,
        sent_at: null,
        accepted_at: status === 'accepted' || status === 'converted' ? at : null,
        declined_at: status === 'declined' ? at : null,
        converted_at: status === 'converted' ? when() : null,
        job_id: null,
        created_at: at,
        updated_at: at,
      })
      .execute();
  }
  // Changes after the fact, which only the update and delete triggers see.
  await db
    .updateTable('invoices')
    .set({ status: 'void' })
    .where('number', 'in', ['INV-1', 'INV-2', 'INV-3'])
    .execute();
  await db
    .updateTable('jobs')
    .set({ status: 'scheduled', completed_at: null })
    .where('number', '=', 'J-1')
    .execute();
  await db.deleteFrom('quotes').where('number', '=', 'Q-1').execute();
}
