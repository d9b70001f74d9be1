import type { Db } from '../../server/db/database';
import { type IdPrefix, newId } from '../../server/lib/ids';

const id = (prefix: IdPrefix, at: string) => newId(prefix, Date.parse(at));

/**
 * The small, hand-checked data set of overview.test.ts, in America/Toronto: "now" is 2026-11-15
 * 10:00 local, and several rows sit just across a UTC/local day or month line. Rows go straight
 * into the tables so the overview tests do not depend on the invoice, quote and job routes.
 */
export async function seedOverview(db: Db, accountId: string) {
  const customer = async (email: string, name: string, createdAt: string) => {
    const row = {
      id: id('cus', createdAt),
      account_id: accountId,
      name,
      email,
      email_lower: email,
      phone: null,
      address: null,
      created_at: createdAt,
      updated_at: createdAt,
      deleted_at: null,
    };
    await db.insertInto('customers').values(row).execute();
    return row.id;
  };
  const ada = await customer('ada@example.com', 'Ada', '2026-11-02T12:00:00Z');
  const bob = await customer('bob@example.com', 'Bob', '2026-10-20T12:00:00Z');
  // 2026-10-31 23:00 in Toronto: an October customer although the UTC date is in November.
  const cy = await customer('cy@example.com', 'Cy', '2026-11-01T03:00:00Z');

  let invoiceNumber = 0;
  const invoice = async (
    customerId: string,
    status: 'sent' | 'partially_paid' | 'paid' | 'void',
    issue: string,
    due: string,
    totalCents: number,
    paidCents: number,
    paidAt: string | null = null,
  ) => {
    const createdAt = `${issue}T12:00:00Z`;
    const row = {
      id: id('inv', createdAt),
      account_id: accountId,
      number: `INV-${String(++invoiceNumber).padStart(4, '0')}`,
      customer_id: customerId,
      status,
      currency: 'CAD',
      issue_date: issue,
      due_date: due,
      subtotal_cents: totalCents,
      tax_total_cents: 0,
      total_cents: totalCents,
      amount_paid_cents: paidCents,
      notes: null,
      quote_id: null,
      job_id: null,
      sent_at: createdAt,
      paid_at: paidAt,
      voided_at: status === 'void' ? createdAt : null,
      created_at: createdAt,
      updated_at: createdAt,
    };
    await db.insertInto('invoices').values(row).execute();
    return row.id;
  };
  const payment = (invoiceId: string, cents: number, method: string | null, paidAt: string) =>
    db
      .insertInto('payments')
      .values({
        id: id('pay', paidAt),
        account_id: accountId,
        invoice_id: invoiceId,
        amount_cents: cents,
        method,
        paid_at: paidAt,
        created_at: paidAt,
      })
      .execute();

  await invoice(ada, 'sent', '2026-10-01', '2026-10-31', 10_000, 0);
  const i2 = await invoice(bob, 'partially_paid', '2026-11-01', '2026-12-01', 25_000, 5_000);
  // Paid 2026-10-31 23:00 Toronto time: October revenue, 26 days after issue.
  const i3 = await invoice(ada, 'paid', '2026-10-05', '2026-11-04', 8_000, 8_000, '2026-11-01T03:00:00Z');
  await invoice(bob, 'void', '2026-11-03', '2026-12-03', 99_900, 0);
  const i5 = await invoice(cy, 'paid', '2026-11-02', '2026-12-02', 4_000, 4_000, '2026-11-10T12:00:00Z');
  await payment(i2, 5_000, 'card', '2026-11-05T14:00:00Z');
  await payment(i3, 8_000, 'cash', '2026-11-01T03:00:00Z');
  await payment(i5, 4_000, 'card', '2026-11-10T12:00:00Z');

  let quoteNumber = 0;
  const quote = (
    status: 'sent' | 'accepted' | 'declined' | 'converted',
    validUntil: string,
    totalCents: number,
    decided: { accepted_at?: string; declined_at?: string; converted_at?: string } = {},
  ) =>
    db
      .insertInto('quotes')
      .values({
        id: id('quo', '2026-10-01T12:00:00Z'),
        account_id: accountId,
        number: `Q-${String(++quoteNumber).padStart(4, '0')}`,
        customer_id: ada,
        status,
        currency: 'CAD',
        issue_date: '2026-10-01',
        valid_until: validUntil,
        subtotal_cents: totalCents,
        tax_total_cents: 0,
        total_cents: totalCents,
        notes: null,
        sent_at: '2026-10-01T12:00:00Z',
        accepted_at: decided.accepted_at ?? null,
        declined_at: decided.declined_at ?? null,
        converted_at: decided.converted_at ?? null,
        job_id: null,
        created_at: '2026-10-01T12:00:00Z',
        updated_at: '2026-10-01T12:00:00Z',
      })
      .execute();
  await quote('sent', '2026-11-30', 50_000);
  await quote('sent', '2026-11-10', 30_000);
  await quote('accepted', '2026-11-30', 10_000, { accepted_at: '2026-11-03T15:00:00Z' });
  await quote('declined', '2026-11-30', 10_000, { declined_at: '2026-11-04T15:00:00Z' });
  await quote('converted', '2026-11-30', 10_000, {
    accepted_at: '2026-10-15T15:00:00Z',
    converted_at: '2026-10-20T15:00:00Z',
  });

  const maria = {
    id: id('tm', '2026-01-01T00:00:00Z'),
    account_id: accountId,
    name: 'Maria',
    created_at: '2026-01-01T00:00:00Z',
    role: 'crew' as const,
    can_see_prices: 0,
  };
  await db.insertInto('team_members').values(maria).execute();
  let jobNumber = 0;
  const job = async (
    customerId: string,
    status: 'scheduled' | 'completed' | 'cancelled',
    start: string,
    completedAt: string | null = null,
  ) => {
    const row = {
      id: id('job', start),
      account_id: accountId,
      number: `J-${String(++jobNumber).padStart(4, '0')}`,
      customer_id: customerId,
      title: `Job ${jobNumber}`,
      status,
      scheduled_start: start,
      scheduled_end: start,
      address: null,
      price_cents: 12_000,
      notes: null,
      quote_id: null,
      booking_id: null,
      started_at: null,
      completed_at: completedAt,
      cancelled_at: null,
      created_at: start,
      updated_at: start,
    };
    await db.insertInto('jobs').values(row).execute();
    return row.id;
  };
  const today = await job(ada, 'scheduled', '2026-11-15T16:00:00Z');
  await db.insertInto('job_assignees').values({ job_id: today, member_id: maria.id }).execute();
  await job(bob, 'scheduled', '2026-11-15T04:00:00Z'); // 14 Nov 23:00 local: yesterday
  await job(bob, 'scheduled', '2026-11-20T15:00:00Z');
  await job(cy, 'scheduled', '2026-11-23T04:30:00Z'); // 22 Nov 23:30 local: the 7th day ahead
  await job(cy, 'scheduled', '2026-11-23T06:00:00Z'); // 23 Nov 01:00 local: beyond the week
  await job(ada, 'cancelled', '2026-11-15T18:00:00Z');
  await job(ada, 'completed', '2026-11-05T14:00:00Z', '2026-11-05T16:00:00Z');
  await job(ada, 'completed', '2026-10-10T14:00:00Z', '2026-10-10T16:00:00Z');

  const review = (rating: number, at: string, customerId: string | null) =>
    db
      .insertInto('reviews')
      .values({
        id: id('rev', at),
        account_id: accountId,
        customer_id: customerId,
        job_id: null,
        rating,
        comment: `${rating} stars`,
        source: 'google',
        received_at: at,
        created_at: at,
        updated_at: at,
      })
      .execute();
  await review(4, '2026-10-20T12:00:00Z', bob);
  await review(3, '2026-11-02T12:00:00Z', ada);
  await review(5, '2026-11-12T12:00:00Z', null);

  await db
    .insertInto('mail_messages')
    .values({
      id: id('msg', '2026-10-01T12:00:00Z'),
      account_id: accountId,
      kind: 'invoice',
      customer_id: ada,
      document_id: null,
      to_address: 'ada@example.com',
      subject: 'Invoice INV-0001',
      body: 'Please find attached',
      offer: null,
      status: 'sent',
      attempts: 1,
      next_attempt_at: null,
      last_error: null,
      created_at: '2026-10-01T12:00:00Z',
      sent_at: '2026-10-01T12:01:00Z',
    })
    .execute();
}
