import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import { type AppContext, createContext } from '../context';
import { up as createFigures } from '../db/migrations/0021_customer_figures';
import { manualClock } from '../lib/clock';
import { customerReferences } from '../sync/customer-references';
import type { OpenedDatabase } from '../sync/open';
import { createAccount, getAccount } from './accounts';
import { listCustomers } from './customer-list';
import { mergeCustomers } from './customer-merge';
import { addNote, addTags, createCustomer, removeTag } from './customers';

/**
 * The trigger-kept customer figures (migration 0021) held to the aggregates they replace, computed
 * afresh from the raw rows, after every step of a random sequence of writes that add, move,
 * change and delete the rows they read.
 */

let dir: string;
let database: OpenedDatabase;
let ctx: AppContext;
let accountId: string;

beforeEach(async () => {
  ({ dir, database } = await openMigratedDatabase('shopdesk-figures-'));
  ctx = createContext(database.db, manualClock('2026-11-22T15:00:00Z'));
  accountId = (await createAccount(ctx, { businessName: 'Sparkle', plan: 'platform', apiPlan: 'growth' })).id;
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const ORACLE = `SELECT c.id AS customer_id,
    (SELECT json_group_array(t.tag ORDER BY t.tag) FROM customer_tags t WHERE t.customer_id = c.id) AS tags_json,
    (SELECT json_group_array(json_object('id', n.id, 'text', n.text, 'created_at', n.created_at) ORDER BY n.id DESC)
      FROM customer_notes n WHERE n.customer_id = c.id) AS notes_json,
    (SELECT coalesce(sum(i.amount_paid_cents), 0) FROM invoices i WHERE i.customer_id = c.id) AS paid_cents,
    (SELECT max(j.completed_at) FROM jobs j WHERE j.customer_id = c.id AND j.status = 'completed') AS last_job_at
  FROM customers c ORDER BY c.id`;

function expectFiguresCurrent(step: string): void {
  const { sqlite } = database;
  const kept = sqlite.prepare('SELECT * FROM customer_figures ORDER BY customer_id').all();
  expect(kept, step).toEqual(sqlite.prepare(ORACLE).all());
}

/** A small deterministic generator, so a failure names a step that reproduces. */
function random(seed: number): (n: number) => number {
  let state = seed;
  return (n) => {
    state = (state * 1_103_515_245 + 12_345) % 2 ** 31;
    return state % n;
  };
}

describe('customer figures', () => {
  it('stay equal to the raw rows through random writes of tags, notes, invoices and jobs', async () => {
    const { sqlite } = database;
    const customers: string[] = [];
    for (let i = 0; i < 6; i++) {
      const customer = await createCustomer(ctx, accountId, {
        name: `Customer ${i}`,
        email: `c${i}@example.com`,
        tags: i % 2 ? ['vip', 'north'] : [],
      });
      customers.push(customer.id);
    }
    expectFiguresCurrent('created');

    const pick = random(24);
    const any = () => customers[pick(customers.length)]!;
    const invoices: string[] = [];
    const jobs: string[] = [];
    const statusOf = ['scheduled', 'completed', 'cancelled'] as const;
    const operations: Array<[string, () => unknown]> = [
      ['tag', () => addTags(ctx, accountId, any(), [`t${pick(4)}`])],
      ['untag', () => removeTag(ctx, accountId, any(), `t${pick(4)}`)],
      ['note', () => addNote(ctx, accountId, any(), `note ${pick(1000)}`)],
      [
        'edit note',
        () =>
          sqlite.prepare('UPDATE customer_notes SET text = text || ? WHERE rowid % 3 = ?').run('!', pick(3)),
      ],
      [
        'move note',
        () =>
          sqlite.prepare('UPDATE customer_notes SET customer_id = ? WHERE rowid % 4 = ?').run(any(), pick(4)),
      ],
      ['delete note', () => sqlite.prepare('DELETE FROM customer_notes WHERE rowid % 5 = ?').run(pick(5))],
      [
        'move tag',
        () =>
          sqlite
            .prepare('UPDATE OR IGNORE customer_tags SET customer_id = ? WHERE tag = ?')
            .run(any(), `t${pick(4)}`),
      ],
      [
        'invoice',
        () => {
          const id = `inv_${invoices.length}`;
          invoices.push(id);
          sqlite
            .prepare(
              `INSERT INTO invoices (id, account_id, number, customer_id, status, currency, issue_date, due_date,
                 subtotal_cents, tax_total_cents, total_cents, amount_paid_cents, created_at, updated_at)
               VALUES (?, ?, ?, ?, 'sent', 'CAD', '2026-11-01', '2026-11-15', 5000, 0, 5000, ?, 'x', 'x')`,
            )
            .run(id, accountId, `N-${id}`, any(), pick(3) * 1000);
        },
      ],
      [
        'pay',
        () =>
          sqlite
            .prepare('UPDATE invoices SET amount_paid_cents = ? WHERE id = ?')
            .run(pick(6) * 900, invoices[pick(invoices.length)] ?? ''),
      ],
      [
        'move invoice',
        () =>
          sqlite
            .prepare('UPDATE invoices SET customer_id = ? WHERE id = ?')
            .run(any(), invoices[pick(invoices.length)] ?? ''),
      ],
      [
        'delete invoice',
        () => sqlite.prepare('DELETE FROM invoices WHERE id = ?').run(invoices[pick(invoices.length)] ?? ''),
      ],
      [
        'job',
        () => {
          const id = `job_${jobs.length}`;
          jobs.push(id);
          const status = statusOf[pick(3)]!;
          sqlite
            .prepare(
              `INSERT INTO jobs (id, account_id, number, customer_id, title, status, completed_at, created_at, updated_at)
               VALUES (?, ?, ?, ?, 'Clean', ?, ?, 'x', 'x')`,
            )
            .run(
              id,
              accountId,
              `J-${id}`,
              any(),
              status,
              status === 'completed' ? `2026-0${1 + pick(9)}-01T10:00:00Z` : null,
            );
        },
      ],
      [
        'change job',
        () =>
          sqlite
            .prepare('UPDATE jobs SET status = ?, completed_at = ? WHERE id = ?')
            .run(statusOf[pick(3)], `2026-1${pick(3)}-02T09:00:00Z`, jobs[pick(jobs.length)] ?? ''),
      ],
      [
        'move job',
        () =>
          sqlite
            .prepare('UPDATE jobs SET customer_id = ? WHERE id = ?')
            .run(any(), jobs[pick(jobs.length)] ?? ''),
      ],
      [
        // As a sync page may apply them: the customer's tags and notes, then the customer.
        'customer arriving after its rows',
        () => {
          const id = `cus_late_${customers.length}`;
          customers.push(id);
          sqlite.pragma('foreign_keys = OFF');
          try {
            for (let n = pick(3); n > 0; n--)
              sqlite.prepare('INSERT INTO customer_tags (customer_id, tag) VALUES (?, ?)').run(id, `t${n}`);
            if (pick(2))
              sqlite
                .prepare(
                  "INSERT INTO customer_notes (id, customer_id, text, created_at) VALUES (?, ?, 'early', 'x')",
                )
                .run(`note_${id}`, id);
            sqlite
              .prepare(
                "INSERT INTO customers (id, account_id, name, created_at, updated_at) VALUES (?, ?, 'Late', 'x', 'x')",
              )
              .run(id, accountId);
          } finally {
            sqlite.pragma('foreign_keys = ON');
          }
        },
      ],
      [
        're-key customer',
        () => {
          const index = pick(customers.length);
          const id = `cus_rekeyed_${index}_${customers.length}`;
          sqlite.pragma('foreign_keys = OFF');
          try {
            sqlite.prepare('UPDATE customers SET id = ? WHERE id = ?').run(id, customers[index]);
          } finally {
            sqlite.pragma('foreign_keys = ON');
          }
          customers[index] = id;
        },
      ],
      [
        'delete job',
        () => sqlite.prepare('DELETE FROM jobs WHERE id = ?').run(jobs[pick(jobs.length)] ?? ''),
      ],
    ];
    for (let step = 0; step < 300; step++) {
      const [name, run] = operations[pick(operations.length)]!;
      await run();
      expectFiguresCurrent(`step ${step}: ${name}`);
    }

    const [into, from] = [customers[0]!, customers[1]!];
    await mergeCustomers(ctx, accountId, into, from, customerReferences());
    expectFiguresCurrent('merged');

    // The migration's own backfill, from the rows as they now stand, agrees with the triggers.
    const dropped = sqlite
      .prepare(
        "SELECT type, name FROM sqlite_master WHERE name LIKE 'customer_figures%' AND type IN ('trigger', 'table')",
      )
      .all() as Array<{ type: string; name: string }>;
    for (const { type, name } of dropped) sqlite.exec(`DROP ${type} IF EXISTS ${name}`);
    await createFigures(database.db as never);
    expectFiguresCurrent('backfilled');
  });

  it('show in the list as the figures the API has always shown', async () => {
    const customer = await createCustomer(ctx, accountId, {
      name: 'Ada',
      email: 'ada@example.com',
      tags: ['b', 'a'],
    });
    await addNote(ctx, accountId, customer.id, 'Gate code 1234');
    const [listed] = (await listCustomers(ctx, await getAccount(ctx.db, accountId), { limit: 25 })).data;
    expect(listed).toMatchObject({
      tags: ['a', 'b'],
      notes: [{ text: 'Gate code 1234' }],
      lifetime_value: 0,
      last_job_at: null,
    });
  });
});
