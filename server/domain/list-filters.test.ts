import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import { type AppContext, createContext } from '../context';
import { manualClock } from '../lib/clock';
import type { OpenedDatabase } from '../sync/open';
import { createAccount } from './accounts';
import { createInvoice, listInvoices } from './invoices';
import { createJob, listJobs } from './jobs';
import { createQuote, listQuotes, updateQuote } from './quotes';

let dir: string;
let database: OpenedDatabase;
let clock: ReturnType<typeof manualClock>;
let ctx: AppContext;
let accountId: string;

const items = [{ description: 'Window cleaning', quantity: 1, unit_price: 80 }];
const ids = (page: { data: { id: string }[] }) => page.data.map((record) => record.id);

beforeEach(async () => {
  ({ dir, database } = await openMigratedDatabase('shopdesk-list-filters-'));
  clock = manualClock('2026-11-22T15:00:00Z');
  ctx = createContext(database.db, clock);
  accountId = (await createAccount(ctx, { businessName: 'Sparkle', plan: 'platform', apiPlan: 'growth' })).id;
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('owner filters', () => {
  it('narrow jobs and invoices to one customer, by id or by e-mail in any case', async () => {
    const ada = await createJob(ctx, accountId, { customer_email: 'ada@example.com', title: 'Windows' });
    const grace = await createJob(ctx, accountId, { customer_email: 'grace@example.com', title: 'Gutters' });
    const adaInvoice = await createInvoice(ctx, accountId, { customer_email: 'ada@example.com', items });
    await createInvoice(ctx, accountId, { customer_email: 'grace@example.com', items });

    expect(ids(await listJobs(ctx, accountId, { limit: 25, customer_email: 'ADA@Example.com' }))).toEqual([
      ada.id,
    ]);
    expect(ids(await listJobs(ctx, accountId, { limit: 25, customer_id: grace.customer.id }))).toEqual([
      grace.id,
    ]);
    expect(ids(await listInvoices(ctx, accountId, { limit: 25, customer_email: 'Ada@example.COM' }))).toEqual(
      [adaInvoice.id],
    );
    expect(
      ids(await listInvoices(ctx, accountId, { limit: 25, customer_email: 'nobody@example.com' })),
    ).toEqual([]);
  });
});

describe('time filters', () => {
  it('take records created in [created_after, created_before) and changed since updated_since', async () => {
    const early = await createQuote(ctx, accountId, { customer_email: 'ada@example.com', items });
    clock.advance(60 * 60 * 1000);
    const late = await createQuote(ctx, accountId, { customer_email: 'ada@example.com', items });
    clock.advance(60 * 60 * 1000);
    await updateQuote(ctx, accountId, early.id, { notes: 'Side door' });

    expect(ids(await listQuotes(ctx, accountId, { limit: 25, created_after: late.created_at }))).toEqual([
      late.id,
    ]);
    expect(ids(await listQuotes(ctx, accountId, { limit: 25, created_before: late.created_at }))).toEqual([
      early.id,
    ]);
    expect(
      ids(await listQuotes(ctx, accountId, { limit: 25, updated_since: '2026-11-22T17:00:00Z' })),
    ).toEqual([early.id]);
  });
});

describe('document search', () => {
  it('matches number, customer name or e-mail, taking LIKE wildcards literally', async () => {
    const percent = await createInvoice(ctx, accountId, {
      customer_email: 'hello@spotless.example',
      customer_name: '100% Spotless',
      items,
    });
    const plain = await createInvoice(ctx, accountId, { customer_email: 'ada_l@example.com', items });

    expect(ids(await listInvoices(ctx, accountId, { limit: 25, q: '%' }))).toEqual([percent.id]);
    expect(ids(await listInvoices(ctx, accountId, { limit: 25, q: '_' }))).toEqual([plain.id]);
    expect(ids(await listInvoices(ctx, accountId, { limit: 25, q: plain.number.toLowerCase() }))).toEqual([
      plain.id,
    ]);
    expect(ids(await listQuotes(ctx, accountId, { limit: 25, q: 'spotless' }))).toEqual([]);
  });
});
