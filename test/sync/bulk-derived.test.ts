import { describe, expect, it } from 'vitest';
import { addNote, addTags, createCustomer, updateCustomer } from '../../server/domain/customers';
import { recordPayment } from '../../server/domain/invoice-payments';
import { createInvoice, sendInvoice, voidInvoice } from '../../server/domain/invoices';
import { completeJob, createJob, updateJob } from '../../server/domain/jobs';
import { acceptQuote, createQuote, declineQuote, markQuoteSent } from '../../server/domain/quotes';
import { type Replica, type Rng, rng, World } from './simulation/world';

/**
 * A first sync writes its rows in batches with the per-row triggers of the derived tables set
 * aside, and rebuilds those tables once at the end (server/sync/device/snapshot-set-aside.ts).
 * A business large enough that every document table fills several of the load's batches is
 * joined from the snapshot by one device and row by row, with every trigger firing, by another
 * (a hub serving no snapshot): the overview rollups, customer figures, payments' tax shares,
 * documents' figures, events' arrival order and the history the next edits write must agree.
 */

const CUSTOMERS = 70;
const LINES_PER_BATCH = 50;

const items = (random: Rng) =>
  Array.from({ length: 1 + random.int(3) }, (_, i) => ({
    description: `Visit ${i + 1}`,
    quantity: 1 + random.int(3),
    unit_price: 25 + random.int(150) + random.int(100) / 100,
  }));

const TAXES = [
  { name: 'GST', rate: 0.05 },
  { name: 'PST', rate: 0.07 },
];

/** Months of a small business, through the domain layer, on the hub's own install. */
async function business(world: World, random: Rng, customers: number[]): Promise<void> {
  const { ctx } = world.hub;
  const accountId = world.accountId;
  for (const c of customers) {
    world.advance(3_600_000 + random.int(86_400_000));
    const email = `customer${c}@example.com`;
    await createCustomer(ctx, accountId, { name: `Customer ${c}`, email });
    if (c % 3 === 0) await addTags(ctx, accountId, email, [c % 2 ? 'vip' : 'weekly']);
    if (c % 4 === 0) await addNote(ctx, accountId, email, `Called on day ${c}`);
    for (let n = 0; n < 2; n++) {
      const invoice = await createInvoice(ctx, accountId, {
        customer_email: email,
        items: items(random),
        taxes: random.chance(0.8) ? TAXES : [],
      });
      await sendInvoice(ctx, accountId, invoice.id);
      world.advance(random.int(5 * 86_400_000));
      const roll = random.int(6);
      if (roll < 2)
        await recordPayment(ctx, accountId, invoice.id, { amount: Math.round(invoice.total * 25) / 100 });
      if (roll < 4)
        await recordPayment(ctx, accountId, invoice.id, { amount: Math.round(invoice.total * 50) / 100 });
      if (roll === 5) await voidInvoice(ctx, accountId, invoice.id);
    }
    if (c % 2 === 0) {
      const start = new Date(world.hub.clock.now().getTime() + 86_400_000);
      const job = await createJob(ctx, accountId, {
        customer_email: email,
        title: 'Window cleaning',
        scheduled_start: start.toISOString(),
        scheduled_end: new Date(start.getTime() + 7_200_000).toISOString(),
        price: 120,
      });
      if (c % 4 === 0) await completeJob(ctx, accountId, job.id);
    }
    if (c % 3 === 1) {
      const quote = await createQuote(ctx, accountId, {
        customer_email: email,
        items: items(random),
        taxes: TAXES,
      });
      await markQuoteSent(ctx, accountId, quote.id);
      await (c % 2 ? acceptQuote : declineQuote)(ctx, accountId, quote.id);
    }
  }
}

/** Edits after both devices joined: each device's history of them starts from its loaded rows. */
async function laterEdits(world: World): Promise<void> {
  const { ctx } = world.hub;
  const accountId = world.accountId;
  const sqlite = world.hub.database.sqlite;
  const pick = (table: string, where = '1') =>
    (
      sqlite
        .prepare(`SELECT id FROM ${table} WHERE account_id = ? AND ${where} ORDER BY id LIMIT 5`)
        .all(accountId) as Array<{ id: string }>
    ).map((r) => r.id);
  world.advance(60_000);
  for (const [i, id] of pick('customers').entries()) {
    await updateCustomer(ctx, accountId, id, { phone: `555-010${i}`, name: `Renamed ${i}` });
  }
  for (const id of pick('invoices', "status = 'sent'")) await voidInvoice(ctx, accountId, id);
  for (const id of pick('jobs', "status = 'scheduled'"))
    await updateJob(ctx, accountId, id, { title: 'Gutters too' });
  await world.hub.engine.syncNow(accountId);
}

function derivedOf(replica: Replica, accountId: string) {
  const sqlite = replica.database.sqlite;
  const all = (text: string) => sqlite.prepare(text).all({ account: accountId });
  return {
    slots: all('SELECT * FROM overview_slots WHERE account_id = :account ORDER BY slot'),
    days: all('SELECT * FROM overview_days WHERE account_id = :account ORDER BY day'),
    figures: all(
      `SELECT f.* FROM customer_figures f JOIN customers c ON c.id = f.customer_id
       WHERE c.account_id = :account ORDER BY f.customer_id`,
    ),
    taxShares: all(
      'SELECT * FROM payment_tax_shares WHERE account_id = :account ORDER BY payment_id, position',
    ),
    invoices: all(
      `SELECT id, subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, status, paid_at
       FROM invoices WHERE account_id = :account ORDER BY id`,
    ),
    quotes: all(
      'SELECT id, subtotal_cents, tax_total_cents, total_cents, status FROM quotes WHERE account_id = :account ORDER BY id',
    ),
    taxes: all(
      `SELECT t.document_id, t.position, t.amount_cents FROM document_taxes t WHERE t.document_id IN
         (SELECT id FROM invoices WHERE account_id = :account UNION SELECT id FROM quotes WHERE account_id = :account)
       ORDER BY t.document_id, t.position`,
    ),
    events: all(
      `SELECT a.event_id FROM event_arrivals a JOIN events e ON e.id = a.event_id
       WHERE e.account_id = :account ORDER BY a.event_id`,
    ),
    history: all(
      `SELECT record_type, record_id, field, old_value, new_value, author, node, replaced FROM record_changes
       WHERE account_id = :account ORDER BY record_type, record_id, field, id`,
    ),
  };
}

describe('a first sync loaded in bulk', () => {
  it('leaves the derived tables as rows applied one by one with their triggers do', async () => {
    const random = rng(2401);
    const world = new World(random);
    try {
      await world.setUp([]);
      // Half the business as the hub first pairs it (rows without clocks), half pushed after.
      const half = CUSTOMERS / 2;
      await business(
        world,
        random,
        Array.from({ length: half }, (_, c) => c),
      );
      await world.addDevice('first', 0);
      await business(
        world,
        random,
        Array.from({ length: half }, (_, c) => half + c),
      );
      await world.hub.engine.syncNow(world.accountId);
      const bulk = await world.addDevice('bulk', 0);
      const rowByRow = await world.addDevice('row-by-row', 0, { snapshot: false });
      // The arrival order the trigger would have given: the rows' key order, as they were loaded.
      const arrivals = (order: string) =>
        bulk.database.sqlite
          .prepare(
            `SELECT a.event_id FROM event_arrivals a JOIN events e ON e.id = a.event_id
             WHERE e.account_id = ? ORDER BY ${order}`,
          )
          .all(world.accountId);
      expect(arrivals('a.seq')).toEqual(arrivals('a.event_id'));
      await laterEdits(world);
      for (const device of [bulk, rowByRow]) await device.engine.syncNow(world.accountId);

      const loaded = derivedOf(bulk, world.accountId);
      expect(loaded).toEqual(derivedOf(rowByRow, world.accountId));

      // The load went through full batches, and every derived table has something to compare.
      const lines = bulk.database.sqlite
        .prepare(
          'SELECT count(*) AS n FROM document_lines WHERE document_id IN (SELECT id FROM invoices WHERE account_id = ?)',
        )
        .get(world.accountId) as { n: number };
      expect(lines.n).toBeGreaterThan(2 * LINES_PER_BATCH);
      expect(loaded.invoices.length).toBeGreaterThan(LINES_PER_BATCH);
      for (const table of ['slots', 'days', 'figures', 'taxShares', 'taxes', 'events', 'history'] as const) {
        expect(loaded[table].length, table).toBeGreaterThan(0);
      }
    } finally {
      await world.close();
    }
  }, 120_000);
});
