import { rmSync } from 'node:fs';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { QuoteCreate } from '../../shared/schemas/quote';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import { type AppContext, createContext } from '../context';
import { manualClock } from '../lib/clock';
import { ApiError } from '../lib/errors';
import type { OpenedDatabase } from '../sync/open';
import { createAccount } from './accounts';
import { updateCustomer } from './customers';
import { markDocumentSent } from './document-mail';
import { getJob } from './jobs';
import {
  acceptQuote,
  convertQuote,
  createQuote,
  declineQuote,
  deleteQuote,
  getQuote,
  listQuotes,
  markQuoteSent,
  sendQuote,
  updateQuote,
} from './quotes';

let dir: string;
let database: OpenedDatabase;
let clock: ReturnType<typeof manualClock>;
let ctx: AppContext;
let accountId: string;

const body: QuoteCreate = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  items: [
    { description: 'Kitchen repaint', quantity: 1, unit_price: 900 },
    { description: 'Paint', quantity: 4, unit_price: 62.5 },
  ],
  taxes: [{ name: 'HST', rate: 0.13 }],
  valid_days: 10,
};

beforeEach(async () => {
  ({ dir, database } = await openMigratedDatabase('shopdesk-quotes-'));
  clock = manualClock('2026-11-22T15:00:00Z');
  ctx = createContext(database.db, clock);
  accountId = (await createAccount(ctx, { businessName: 'Brush Co', plan: 'platform', apiPlan: 'growth' }))
    .id;
});

afterEach(async () => {
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

async function refused(promise: Promise<unknown>): Promise<ApiError> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(ApiError);
  return error as ApiError;
}

async function eventTypes(): Promise<string[]> {
  const rows = await ctx.db.selectFrom('events').select('type').orderBy('id').execute();
  return rows.map((r) => r.type);
}

describe('quote lifecycle', () => {
  it('creates a numbered draft valid for valid_days', async () => {
    const quote = await createQuote(ctx, accountId, body);
    expect(quote).toMatchObject({
      number: 'Q-0001',
      status: 'draft',
      subtotal: 1150,
      tax_total: 149.5,
      total: 1299.5,
      issue_date: '2026-11-22',
      valid_until: '2026-12-02',
    });
  });

  it('goes draft → sent → accepted → converted, creating a job', async () => {
    const quote = await createQuote(ctx, accountId, body);
    await updateCustomer(ctx, accountId, 'ada@example.com', { address: '1 Main St, Toronto' });

    const queued = await sendQuote(ctx, accountId, quote.number);
    expect(queued).toMatchObject({ status: 'draft', sent_at: null });
    const mail = await ctx.db.selectFrom('mail_messages').selectAll().execute();
    expect(mail.map((m) => [m.kind, m.document_id, m.subject])).toEqual([
      ['quote', quote.id, 'Quote Q-0001 from Brush Co'],
    ]);
    // What the mail worker records once the e-mail has gone out.
    await markDocumentSent(ctx.db, mail[0]!, '2026-11-22T15:00:00Z');
    expect(await getQuote(ctx, accountId, quote.number)).toMatchObject({
      status: 'sent',
      sent_at: '2026-11-22T15:00:00Z',
    });

    const accepted = await acceptQuote(ctx, accountId, quote.id);
    expect(accepted).toMatchObject({ status: 'accepted', accepted_at: '2026-11-22T15:00:00Z' });
    const event = await ctx.db
      .selectFrom('events')
      .select('payload')
      .where('type', '=', 'quote.accepted')
      .execute();
    expect(JSON.parse(event[0]!.payload).data.object).toEqual(accepted);

    const converted = await convertQuote(ctx, accountId, quote.number);
    expect(converted.status).toBe('converted');
    expect(converted.job_id).toMatch(/^job_/);
    const job = await getJob(ctx, accountId, converted.job_id!);
    expect(job).toMatchObject({
      title: 'Kitchen repaint',
      price: 1299.5,
      address: '1 Main St, Toronto',
      quote_id: quote.id,
      status: 'unscheduled',
      customer: { email: 'ada@example.com' },
    });
    expect((await refused(convertQuote(ctx, accountId, quote.number))).message).toContain(
      'already converted',
    );
    // The address given to a customer without a place becomes their first place.
    expect(await eventTypes()).toEqual(['customer.created', 'property.created', 'quote.accepted']);
  });

  it('records a decline and refuses to accept it afterwards', async () => {
    const quote = await createQuote(ctx, accountId, body);
    await markQuoteSent(ctx, accountId, quote.number);
    const declined = await declineQuote(ctx, accountId, quote.number);
    expect(declined).toMatchObject({ status: 'declined', declined_at: '2026-11-22T15:00:00Z' });
    const refusal = await refused(acceptQuote(ctx, accountId, quote.number));
    expect([refusal.status, refusal.code]).toEqual([409, 'invalid_state']);
    expect((await refused(convertQuote(ctx, accountId, quote.number))).status).toBe(409);
    expect((await refused(sendQuote(ctx, accountId, quote.number))).status).toBe(409);
    expect(await eventTypes()).toEqual(['customer.created', 'quote.declined']);
  });
});

describe('expiry', () => {
  it('shows a sent quote as expired after valid_until, and refuses to accept it', async () => {
    const draft = await createQuote(ctx, accountId, body);
    const sent = await createQuote(ctx, accountId, body);
    await markQuoteSent(ctx, accountId, sent.number);
    const declinedLater = await createQuote(ctx, accountId, body);
    await markQuoteSent(ctx, accountId, declinedLater.number);

    // valid_until 2026-12-02 is the last valid day, to midnight in Toronto (05:00 UTC on the 3rd).
    clock.set('2026-12-03T04:59:00Z');
    expect((await getQuote(ctx, accountId, sent.number)).status).toBe('sent');
    clock.set('2026-12-03T05:01:00Z');
    expect((await getQuote(ctx, accountId, sent.number)).status).toBe('expired');
    expect((await getQuote(ctx, accountId, draft.number)).status).toBe('draft');

    const refusal = await refused(acceptQuote(ctx, accountId, sent.number));
    expect(refusal.status).toBe(409);
    expect(refusal.message).toContain('expired');
    expect((await refused(sendQuote(ctx, accountId, sent.number))).status).toBe(409);
    expect((await declineQuote(ctx, accountId, declinedLater.number)).status).toBe('declined');

    const expired = await listQuotes(ctx, accountId, { limit: 25, status: 'expired' });
    expect(expired.data.map((q) => q.number)).toEqual([sent.number]);
    expect((await listQuotes(ctx, accountId, { limit: 25, status: 'sent' })).data).toEqual([]);
  });

  it('refuses to send a draft whose validity has already passed', async () => {
    const quote = await createQuote(ctx, accountId, { ...body, issue_date: '2026-10-01' });
    const refusal = await refused(sendQuote(ctx, accountId, quote.number));
    expect(refusal.message).toContain('change valid_until');
    const extended = await updateQuote(ctx, accountId, quote.number, { valid_until: '2026-12-31' });
    expect((await sendQuote(ctx, accountId, extended.number)).status).toBe('draft');
  });
});

describe('draft-only changes', () => {
  it('updates and deletes drafts only', async () => {
    const quote = await createQuote(ctx, accountId, body);
    const updated = await updateQuote(ctx, accountId, quote.id, {
      items: [{ description: 'Bathroom repaint', quantity: 1, unit_price: 400 }],
    });
    expect(updated).toMatchObject({ subtotal: 400, tax_total: 52, total: 452 });
    const early = await refused(updateQuote(ctx, accountId, quote.id, { valid_until: '2026-11-01' }));
    expect([early.status, early.options.param]).toEqual([400, 'valid_until']);

    await markQuoteSent(ctx, accountId, quote.number);
    expect((await refused(updateQuote(ctx, accountId, quote.number, { notes: 'x' }))).status).toBe(409);
    expect((await refused(deleteQuote(ctx, accountId, quote.number))).status).toBe(409);

    const other = await createQuote(ctx, accountId, body);
    expect(await deleteQuote(ctx, accountId, other.number)).toEqual({
      id: other.id,
      object: 'quote',
      deleted: true,
    });
    expect((await refused(getQuote(ctx, accountId, other.number))).status).toBe(404);
  });
});
