import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { type ErrorBody, expectError, expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const clock = manualClock('2026-11-22T15:00:00Z');
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

const item = { description: 'Deep clean', quantity: 1, unit_price: 100 };

describe('control characters in text', () => {
  it('refuses CR/LF, NUL and lone surrogates in one-line fields', async () => {
    const cases: Array<[string, string, unknown]> = [
      ['PUT', '/config', { invoice_prefix: 'I\r\nX: ' }],
      ['PUT', '/config', { business_name: 'Shop\u0000' }],
      ['POST', '/customers', { name: 'Ada\uD800', email: 'ada@example.com' }],
      ['POST', '/customers', { name: 'Ada\nBcc: x', email: 'ada@example.com' }],
      ['POST', '/jobs/create', { customer_email: 'ada@example.com', customer_name: 'Ada', title: 'A\rB' }],
    ];
    for (const [method, path, body] of cases) {
      const response = expectError(await shop.portal<ErrorBody>(method, path, { body }));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.code).toBe('validation_failed');
    }
    const v1 = await shop.v1('POST', '/clients', { body: { name: 'Tab\there', email: 'tab@example.com' } });
    expectStatus(v1, 400);
    expect(v1.body.error.param).toBe('name');
  });

  it('keeps line breaks in multi-line text, but no other control characters', async () => {
    const emoji = await shop.portal('POST', '/customers', {
      body: { name: 'Grace 😀 Łukasz', email: 'grace@example.com' },
    });
    expectStatus(emoji, 201);
    const note = await shop.portal('POST', '/customers/grace%40example.com/notes', {
      body: { text: 'Line one\r\nline two\twith a tab' },
    });
    expectStatus(note, 201);
    const bell = await shop.portal('POST', '/customers/grace%40example.com/notes', {
      body: { text: 'ding\u0007' },
    });
    expectStatus(bell, 400);
    const surrogate = await shop.portal('POST', '/customers/grace%40example.com/notes', {
      body: { text: 'half \uDC00' },
    });
    expectStatus(surrogate, 400);
  });
});

describe('locale, currency and time zone', () => {
  it('refuses values nothing can format, and keeps the feed and PDFs working', async () => {
    for (const body of [
      { locale: 'i-klingon' },
      { locale: 'zz-ZZ' },
      { currency: 'XYZ' },
      { timezone: 'Mars/Olympus' },
    ]) {
      const response = expectError(await shop.portal('PUT', '/config', { body }));
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.error.param).toBe(Object.keys(body)[0]);
    }
    const ok = await shop.portal('PUT', '/config', {
      body: { locale: 'fr-CA', currency: 'EUR', timezone: 'UTC' },
    });
    expectStatus(ok, 200);
    expect((await shop.portal('GET', '/calendar.ics')).status).toBe(200);
    await shop.portal('PUT', '/config', {
      body: { locale: 'en-CA', currency: 'CAD', timezone: 'America/Toronto' },
    });
  });

  it('serves an account whose stored locale predates the rule', async () => {
    const { getAccount } = await import('../../server/domain/accounts');
    const account = await getAccount(server.ctx.db, shop.clientId);
    await server.ctx.db
      .updateTable('accounts')
      .set({ config: JSON.stringify({ ...account.config, locale: 'i-klingon' }) })
      .where('id', '=', shop.clientId)
      .execute();
    const config = await shop.portal('GET', '/config');
    expectStatus(config, 200);
    expect(config.body.locale).toBe('en-CA');
    expect((await shop.portal('GET', '/calendar.ics')).status).toBe(200);
  });
});

describe('dates', () => {
  it('bounds dates to a sane range', async () => {
    for (const issue_date of ['9999-12-31', '0001-01-01', '1899-12-31', '2200-01-01']) {
      const response = expectError(
        await shop.portal('POST', '/invoices/create', {
          body: { customer_email: 'ada@example.com', items: [item], issue_date, due_days: 30 },
        }),
      );
      expect(response.status, issue_date).toBe(400);
      expect(response.body.error.param).toBe('issue_date');
    }
    const job = await shop.v1('POST', '/jobs', {
      body: { customer_email: 'ada@example.com', title: 'Far', scheduled_start: '9999-01-01T10:00:00Z' },
    });
    expectStatus(job, 400);
  });

  it('refuses a payment dated before the invoice was issued', async () => {
    const invoice = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: { customer_email: 'ada@example.com', items: [item], issue_date: '2026-11-20' },
      }),
    );
    const number = invoice.body.number;
    const early = await shop.portal('POST', `/invoices/${number}/payment`, {
      body: { amount: 10, paid_at: '2026-11-19T12:00:00Z' },
    });
    expectStatus(early, 400);
    expect(early.body.error.param).toBe('paid_at');
    const early2 = await shop.portal('POST', `/invoices/${number}/paid`, {
      body: { paid_at: '2026-11-20T04:00:00Z' },
    });
    expectStatus(early2, 400);
    const sameDay = await shop.portal('POST', `/invoices/${number}/payment`, {
      body: { amount: 10, paid_at: '2026-11-20T06:00:00Z' },
    });
    expectStatus(sameDay, 200);
  });
});

describe('smaller rules', () => {
  it('refuses to mark a 0.00 invoice paid', async () => {
    const free = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: { customer_email: 'ada@example.com', items: [{ ...item, unit_price: 0 }] },
      }),
    );
    const paid = await shop.portal('POST', `/invoices/${free.body.number}/paid`);
    expectStatus(paid, 409);
    expect(paid.body.error.code).toBe('invalid_state');
  });

  it('keeps a customer within 50 tags however many requests add them', async () => {
    await shop.portal('POST', '/customers', { body: { name: 'Tagged', email: 'tagged@example.com' } });
    const tags = (from: number) => Array.from({ length: 30 }, (_, i) => `tag ${from + i}`);
    expect(
      (await shop.portal('POST', '/customers/tagged%40example.com/tags', { body: { tags: tags(0) } })).status,
    ).toBe(200);
    const over = await shop.portal('POST', '/customers/tagged%40example.com/tags', {
      body: { tags: tags(30) },
    });
    expectStatus(over, 400);
    expect(over.body.error.param).toBe('tags');
    const customer = expectOk(await shop.portal('GET', '/customers/tagged%40example.com'));
    expect(customer.body.tags).toHaveLength(30);
  });

  it('reports the calendar feed token as read-only', async () => {
    const cookie = await shop.signIn();
    const created = await server.request('POST', `/api/portal/${shop.clientId}/integrations/feed-token`, {
      headers: { cookie },
    });
    expectStatus(created, 201);
    expect(created.body.scopes).toEqual(['read']);
  });
});
