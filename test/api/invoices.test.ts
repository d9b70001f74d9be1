import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const clock = manualClock('2026-11-22T15:00:00Z');
let server: TestServer;
let shop: TestAccount;

const invoiceBody = {
  customer_name: 'Ada Lovelace',
  customer_email: 'ada@example.com',
  items: [
    { description: 'Deep clean', quantity: 1, unit_price: 240 },
    { description: 'Carpet shampoo', quantity: 2.5, unit_price: 35.5 },
  ],
  taxes: [
    { name: 'GST', rate: 0.05 },
    { name: 'PST', rate: 0.07 },
  ],
  due_days: 14,
};

async function create(body: Record<string, unknown> = invoiceBody) {
  const created = await shop.portal('POST', '/invoices/create', { body });
  expectStatus(created, 201);
  return created.body;
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

describe('POST /invoices/create', () => {
  it('creates a draft with server-computed totals and the customer', async () => {
    const invoice = await create({
      ...invoiceBody,
      subtotal: 1,
      tax_total: 2,
      total: 3,
      notes: 'Gate code 12',
    });
    expect(invoice).toMatchObject({
      object: 'invoice',
      number: 'INV-0001',
      status: 'draft',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      items: [
        { description: 'Deep clean', quantity: 1, unit_price: 240, amount: 240 },
        { description: 'Carpet shampoo', quantity: 2.5, unit_price: 35.5, amount: 88.75 },
      ],
      taxes: [
        { name: 'GST', rate: 0.05, amount: 16.44 },
        { name: 'PST', rate: 0.07, amount: 23.01 },
      ],
      subtotal: 328.75,
      tax_total: 39.45,
      total: 368.2,
      amount_paid: 0,
      balance: 368.2,
      currency: 'CAD',
      issue_date: '2026-11-22',
      due_date: '2026-12-06',
      payments: [],
      notes: 'Gate code 12',
    });
    expect(invoice.id).toMatch(/^inv_/);
    const customers = await shop.events('customer.created');
    expect(customers.map((e) => e.data.object.email)).toEqual(['ada@example.com']);
  });

  it('takes default taxes and due days from config when absent', async () => {
    await shop.portal('PUT', '/config', {
      body: { default_taxes: [{ name: 'HST', rate: 0.13 }], default_due_days: 30 },
    });
    const { taxes: _t, due_days: _d, ...bare } = invoiceBody;
    const invoice = await create(bare);
    expect(invoice.taxes).toEqual([{ name: 'HST', rate: 0.13, amount: 42.74 }]);
    expect(invoice.due_date).toBe('2026-12-22');
    const untaxed = await create({ ...bare, taxes: [] });
    expect(untaxed.total).toBe(328.75);
  });

  it('names the failing field of a bad body', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [
        { ...invoiceBody, items: [{ description: 'X', quantity: 'two', unit_price: 1 }] },
        'items[0].quantity',
      ],
      [
        { ...invoiceBody, items: [{ description: 'X', quantity: 1, unit_price: 1.00001 }] },
        'items[0].unit_price',
      ],
      [{ ...invoiceBody, items: [] }, 'items'],
      [{ ...invoiceBody, customer_email: 'nope' }, 'customer_email'],
      [{ ...invoiceBody, taxes: [{ name: 'GST', rate: 5 }] }, 'taxes[0].rate'],
      [{ ...invoiceBody, due_days: 1.5 }, 'due_days'],
    ];
    for (const [body, param] of cases) {
      const bad = expectError(await shop.portal('POST', '/invoices/create', { body }));
      expect(bad.status, param).toBe(400);
      expect(bad.body.error).toMatchObject({ code: 'validation_failed', param });
    }
    const unknown = await shop.portal('POST', '/invoices/create', {
      body: { ...invoiceBody, currency: 'USD' },
    });
    expectStatus(unknown, 400);
    expect(unknown.body.error.message).toContain('currency');
  });

  it('replays an Idempotency-Key and refuses it with another body', async () => {
    const headers = { 'Idempotency-Key': 'create-once' };
    const first = expectOk(await shop.portal('POST', '/invoices/create', { body: invoiceBody, headers }));
    const replay = await shop.portal('POST', '/invoices/create', { body: invoiceBody, headers });
    expectStatus(replay, 201);
    expect(replay.headers.get('idempotent-replayed')).toBe('true');
    expect(replay.body).toEqual(first.body);
    const count = await server.ctx.db
      .selectFrom('invoices')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('id', '=', first.body.id)
      .executeTakeFirstOrThrow();
    expect(Number(count.n)).toBe(1);
    const other = await shop.portal('POST', '/invoices/create', {
      body: { ...invoiceBody, due_days: 3 },
      headers,
    });
    expectStatus(other, 409);
    expect(other.body.error.code).toBe('idempotency_key_reused');
  });

  it('needs the platform plan to write but not to read', async () => {
    const basic = await server.createAccount({ plan: 'basic' });
    const refused = await basic.portal('POST', '/invoices/create', { body: invoiceBody });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
    const list = await basic.portal('GET', '/invoices');
    expectStatus(list, 200);
    expect(list.body.data).toEqual([]);
  });
});

describe('reading invoices', () => {
  it('gets an invoice by number or id and answers 404 for an unknown one', async () => {
    const invoice = await create();
    expect(okBody(await shop.portal('GET', `/invoices/${invoice.number}`))).toEqual(invoice);
    expect(okBody(await shop.portal('GET', `/invoices/${invoice.id}`)).number).toBe(invoice.number);
    const missing = await shop.portal('GET', '/invoices/INV-9999');
    expectStatus(missing, 404);
    expect(missing.body.error.code).toBe('not_found');
    expect((await shop.portal('POST', '/invoices/INV-9999/send')).status).toBe(404);
  });

  it('lists newest first with filters and keyset pages', async () => {
    const grace = await create({
      ...invoiceBody,
      customer_name: 'Grace Hopper',
      customer_email: 'grace@example.com',
    });
    const all = await shop.portal('GET', '/invoices?limit=2');
    expectStatus(all, 200);
    expect(all.body.data[0]!.id).toBe(grace.id);
    expect(all.body.pagination.has_more).toBe(true);
    const next = expectOk(
      await shop.portal('GET', `/invoices?limit=2&cursor=${all.body.pagination.next_cursor}`),
    );
    expect(next.body.data[0]!.id < all.body.data[1]!.id).toBe(true);

    const byEmail = expectOk(await shop.portal('GET', '/invoices?customer_email=GRACE%40example.com'));
    expect(byEmail.body.data.map((i: { id: string }) => i.id)).toEqual([grace.id]);
    const bySearch = expectOk(await shop.portal('GET', '/invoices?q=hopper'));
    expect(bySearch.body.data.map((i: { id: string }) => i.id)).toEqual([grace.id]);
    const byNumber = expectOk(await shop.portal('GET', `/invoices?q=${grace.number}`));
    expect(byNumber.body.data.map((i: { id: string }) => i.id)).toEqual([grace.id]);

    const badStatus = await shop.portal('GET', '/invoices?status=late');
    expectStatus(badStatus, 400);
    expect(badStatus.body.error.param).toBe('status');
    expect((await shop.portal('GET', '/invoices?limit=500')).status).toBe(400);
  });

  it('filters overdue invoices once their due date has passed', async () => {
    const late = await create({
      ...invoiceBody,
      customer_email: 'late@example.com',
      issue_date: '2026-10-01',
    });
    await shop.portal('POST', `/invoices/${late.number}/mark-sent`);
    const overdue = expectOk(
      await shop.portal('GET', '/invoices?status=overdue&customer_email=late%40example.com'),
    );
    expect(overdue.body.data.map((i: { id: string; status: string }) => [i.id, i.status])).toEqual([
      [late.id, 'overdue'],
    ]);
    const sent = expectOk(
      await shop.portal('GET', '/invoices?status=sent&customer_email=late%40example.com'),
    );
    expect(sent.body.data).toEqual([]);
  });
});

describe('sending and payments', () => {
  it('queues the e-mail without marking the invoice sent, and lets the owner cancel it', async () => {
    const invoice = await create();
    const queued = await shop.portal('POST', `/invoices/${invoice.number}/send`);
    expectStatus(queued, 200);
    expect(queued.body).toMatchObject({ status: 'draft', sent_at: null });
    const twice = expectError(await shop.portal('POST', `/invoices/${invoice.number}/send`));
    expect([twice.status, twice.body.error.message]).toEqual([
      409,
      `Invoice ${invoice.number} already waits in the outbox; open it in Messages to send it now or cancel it.`,
    ]);
    const listed = expectOk(await shop.portal('GET', `/messages?document_id=${invoice.id}`));
    expect(listed.body.data.map((m: any) => [m.kind, m.to, m.status, m.waiting_reason])).toEqual([
      ['invoice', 'ada@example.com', 'queued', 'smtp_not_configured'],
    ]);
    const id = listed.body.data[0]!.id;
    const now = expectError(await shop.portal('POST', `/messages/${id}/send`));
    expect([now.status, now.body.error.message]).toEqual([
      409,
      'Not sent — set up e-mail first: Settings › Business › E-mail.',
    ]);
    const cancelled = expectOk(await shop.portal('POST', `/messages/${id}/cancel`));
    expect(cancelled.body).toMatchObject({ status: 'cancelled', last_error: 'Cancelled by you' });
    expect(
      okBody(await shop.portal('GET', `/messages?status=cancelled&document_id=${invoice.id}`)).data,
    ).toHaveLength(1);
    expect((await shop.portal('POST', `/invoices/${invoice.number}/send`)).status).toBe(200);

    const handed = expectOk(await shop.portal('POST', `/invoices/${invoice.number}/mark-sent`));
    expect(handed.body).toMatchObject({ status: 'sent', sent_at: '2026-11-22T15:00:00Z' });
  });

  it('records partial payments, then the rest, with one event each', async () => {
    const invoice = await create({ ...invoiceBody, issue_date: '2026-11-20' });
    const partial = await shop.portal('POST', `/invoices/${invoice.number}/payment`, {
      body: { amount: 100, method: 'e-transfer', paid_at: '2026-11-21T12:00:00Z' },
    });
    expectStatus(partial, 200);
    expect(partial.body).toMatchObject({ status: 'partially_paid', amount_paid: 100, balance: 268.2 });
    expect(partial.body.payments[0]).toMatchObject({
      amount: 100,
      method: 'e-transfer',
      paid_at: '2026-11-21T12:00:00Z',
      created_at: '2026-11-22T15:00:00Z',
    });

    const over = await shop.portal('POST', `/invoices/${invoice.number}/payment`, {
      body: { amount: 268.21 },
    });
    expectStatus(over, 400);
    expect(over.body.error).toMatchObject({ code: 'validation_failed', param: 'amount' });
    const zero = expectError(
      await shop.portal('POST', `/invoices/${invoice.number}/payment`, { body: { amount: 0 } }),
    );
    expect(zero.body.error.param).toBe('amount');

    const paid = expectOk(
      await shop.portal('POST', `/invoices/${invoice.number}/paid`, { body: { method: 'cash' } }),
    );
    expect(paid.body).toMatchObject({ status: 'paid', amount_paid: 368.2, balance: 0 });

    const recorded = await shop.events('invoice.payment_recorded');
    expect(recorded.at(-1)!.data.object).toEqual(partial.body);
    const paidEvents = await shop.events('invoice.paid');
    expect(paidEvents.at(-1)!.data.object).toEqual(paid.body);

    const again = await shop.portal('POST', `/invoices/${invoice.number}/paid`);
    expectStatus(again, 409);
    expect(again.body.error.code).toBe('invalid_state');
    const more = await shop.portal('POST', `/invoices/${invoice.number}/payment`, { body: { amount: 1 } });
    expectStatus(more, 409);
    expect((await shop.portal('POST', `/invoices/${invoice.number}/send`)).status).toBe(409);
  });

  it('lists payments in the order they were paid, not the order they were recorded', async () => {
    const invoice = await create({ ...invoiceBody, issue_date: '2026-11-15' });
    for (const [amount, paid_at] of [
      [30, '2026-11-21T09:00:00Z'],
      [10, '2026-11-16T09:00:00Z'],
      [20, '2026-11-18T09:00:00Z'],
    ] as const) {
      const paid = await shop.portal('POST', `/invoices/${invoice.number}/payment`, {
        body: { amount, paid_at },
      });
      expect(paid.status, paid.text).toBe(200);
    }
    const read = expectOk(await shop.portal('GET', `/invoices/${invoice.number}`));
    expect(read.body.payments.map((p: { amount: number }) => p.amount)).toEqual([10, 20, 30]);
  });

  it('voids an invoice without payments and refuses one with payments', async () => {
    const withPayment = await create();
    await shop.portal('POST', `/invoices/${withPayment.number}/payment`, { body: { amount: 5 } });
    const refused = await shop.portal('POST', `/invoices/${withPayment.number}/void`);
    expectStatus(refused, 409);
    expect(refused.body.error.code).toBe('invalid_state');

    const clean = await create();
    const voided = expectOk(await shop.portal('POST', `/invoices/${clean.number}/void`));
    expect(voided.body).toMatchObject({ status: 'void', voided_at: '2026-11-22T15:00:00Z' });
    const pay = await shop.portal('POST', `/invoices/${clean.number}/payment`, { body: { amount: 1 } });
    expectStatus(pay, 409);
    expect(pay.body.error.message).toContain('void');
  });
});

describe('draft edits', () => {
  it('patches and deletes drafts, and refuses once sent', async () => {
    const invoice = await create();
    const patched = await shop.portal('PATCH', `/invoices/${invoice.number}`, {
      body: { items: [{ description: 'Move-out clean', quantity: 1, unit_price: 300 }] },
    });
    expectStatus(patched, 200);
    expect(patched.body).toMatchObject({ subtotal: 300, tax_total: 36, total: 336 });
    const nameOnly = expectError(
      await shop.portal('PATCH', `/invoices/${invoice.number}`, {
        body: { customer_name: 'Someone' },
      }),
    );
    expect(nameOnly.body.error.param).toBe('customer_name');

    await shop.portal('POST', `/invoices/${invoice.number}/mark-sent`);
    const late = await shop.portal('PATCH', `/invoices/${invoice.number}`, { body: { notes: 'x' } });
    expectStatus(late, 409);
    expect((await shop.portal('DELETE', `/invoices/${invoice.number}`)).status).toBe(409);

    const draft = await create();
    const deleted = expectOk(await shop.portal('DELETE', `/invoices/${draft.number}`));
    expect(deleted.body).toEqual({ id: draft.id, object: 'invoice', deleted: true });
    expect((await shop.portal('GET', `/invoices/${draft.number}`)).status).toBe(404);
  });
});
