import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
});
afterAll(() => server.stop());

describe('portal customers', () => {
  it('creates, finds by e-mail case-insensitively, and lists newest first', async () => {
    const created = await shop.portal('POST', '/customers', {
      body: { name: 'Ada Lovelace', email: 'Ada@Example.com', tags: ['VIP'] },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'customer',
      email: 'Ada@Example.com',
      tags: ['vip'],
      lapsed: false,
    });
    await shop.portal('POST', '/customers', { body: { name: 'Grace Hopper', email: 'grace@example.com' } });

    const found = await shop.portal('GET', `/customers/${encodeURIComponent('ada@example.com')}`);
    expectStatus(found, 200);
    expect(found.body.id).toBe(created.body.id);

    const list = expectOk(await shop.portal('GET', '/customers'));
    expect(list.body.data.map((c: { name: string }) => c.name)).toEqual(['Grace Hopper', 'Ada Lovelace']);
    expect(list.body.pagination).toEqual({ has_more: false, next_cursor: null });
  });

  it('finds a customer by a phone typed as bare digits, and by id in the path', async () => {
    const own = await server.createAccount({ business: 'Phone Finder' });
    const created = await own.portal('POST', '/customers', {
      body: { name: 'Lucas Martin', email: 'lucas@example.com', phone: '+1 (604) 555-0142' },
    });
    expectStatus(created, 201);
    for (const q of ['6045550142', '555-0142', '604 555']) {
      const found = expectOk(await own.portal('GET', `/customers?q=${encodeURIComponent(q)}`));
      expect(
        found.body.data.map((c: { id: string }) => c.id),
        q,
      ).toEqual([created.body.id]);
    }
    const byId = expectOk(await own.portal('GET', `/customers/${created.body.id}`));
    expect(byId.body).toMatchObject({ email: 'lucas@example.com', history: { invoices: [] } });
    const moved = await own.portal('PATCH', `/customers/${created.body.id}`, {
      body: { email: 'l.martin@example.com' },
    });
    expectStatus(moved, 200);
    expect(okBody(await own.portal('GET', `/customers/${created.body.id}`)).email).toBe(
      'l.martin@example.com',
    );
  });

  it('refuses a duplicate e-mail with 409 conflict', async () => {
    const again = await shop.portal('POST', '/customers', {
      body: { name: 'Ada', email: 'ADA@example.com' },
    });
    expectStatus(again, 409);
    expect(again.body.error).toMatchObject({
      type: 'invalid_request_error',
      code: 'conflict',
      param: 'email',
    });
  });

  it('reports validation failures with the failing param', async () => {
    const bad = await shop.portal('POST', '/customers', { body: { name: 'X', email: 'not-an-email' } });
    expectStatus(bad, 400);
    expect(bad.body.error.code).toBe('validation_failed');
    expect(bad.body.error.param).toBe('email');
    expect(bad.body.error.request_id).toMatch(/^req_/);
  });

  it('rejects malformed JSON', async () => {
    const bad = await shop.portal('POST', '/customers', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(bad, 400);
    expect(bad.body.error.code).toBe('validation_failed');
  });

  it('adds tags and notes, and filters by tag and search', async () => {
    const tagged = expectOk(
      await shop.portal('POST', '/customers/grace%40example.com/tags', {
        body: { tags: ['Weekly', 'vip'] },
      }),
    );
    expect(tagged.body.tags).toEqual(['vip', 'weekly']);
    const noted = await shop.portal('POST', '/customers/grace%40example.com/notes', {
      body: { text: 'Gate code 1234' },
    });
    expectStatus(noted, 201);
    expect(noted.body.notes[0]!.text).toBe('Gate code 1234');

    const weekly = expectOk(await shop.portal('GET', '/customers?tag=weekly'));
    expect(weekly.body.data.map((c) => c.email)).toEqual(['grace@example.com']);
    const search = expectOk(await shop.portal('GET', '/customers?q=LOVE'));
    expect(search.body.data.map((c) => c.email)).toEqual(['Ada@Example.com']);
  });

  it('pages with a cursor and refuses a bad limit or cursor', async () => {
    for (let i = 0; i < 5; i++) {
      await shop.portal('POST', '/customers', { body: { name: `Page ${i}`, email: `page${i}@example.com` } });
    }
    const first = expectOk(await shop.portal('GET', '/customers?limit=3'));
    expect(first.body.data).toHaveLength(3);
    expect(first.body.pagination.has_more).toBe(true);
    const second = expectOk(
      await shop.portal('GET', `/customers?limit=3&cursor=${first.body.pagination.next_cursor}`),
    );
    const ids = [...first.body.data, ...second.body.data].map((c: { id: string }) => c.id);
    expect(new Set(ids).size).toBe(6);

    expect((await shop.portal('GET', '/customers?limit=0')).status).toBe(400);
    expect((await shop.portal('GET', '/customers?limit=101')).status).toBe(400);
    const badCursor = await shop.portal('GET', '/customers?cursor=nonsense');
    expectStatus(badCursor, 400);
    expect(badCursor.body.error.param).toBe('cursor');
  });

  it('answers 404 for an unknown customer', async () => {
    const missing = await shop.portal('GET', '/customers/nobody%40example.com');
    expectStatus(missing, 404);
    expect(missing.body.error.code).toBe('not_found');
  });

  it('queues a win-back for any customer the owner picks, with the template filled in', async () => {
    const sent = await shop.portal('POST', '/customers/grace%40example.com/winback');
    expectStatus(sent, 201);
    expect(sent.body.customer.email).toBe('grace@example.com');
    expect(sent.body.message).toMatchObject({ kind: 'winback', status: 'queued', to: 'grace@example.com' });
    expect(sent.body.message.body).toContain('Hi Grace Hopper');
    expect(sent.body.message.body).not.toContain('{offer}');
  });
});

describe('computed customer figures', () => {
  it('shows lifetime value and last job, turns lapsed after the win-back period, and queues a win-back', async () => {
    const clock = manualClock('2026-03-02T15:00:00Z');
    const local = await startTestServer({ clock });
    try {
      const owner = await local.createAccount();
      const job = expectOk(
        await owner.portal('POST', '/jobs/create', {
          body: { customer_email: 'lin@example.com', customer_name: 'Lin', title: 'Gutter clean' },
        }),
      );
      await owner.portal('POST', `/jobs/${job.body.job_number}/complete`);
      const invoice = expectOk(
        await owner.portal('POST', '/invoices/create', {
          body: {
            customer_email: 'lin@example.com',
            items: [{ description: 'Gutter clean', quantity: 1, unit_price: 120 }],
            taxes: [],
          },
        }),
      );
      await owner.portal('POST', `/invoices/${invoice.body.number}/payment`, { body: { amount: 45.5 } });

      const fresh = expectOk(await owner.portal('GET', '/customers/lin%40example.com'));
      expect(fresh.body).toMatchObject({
        lifetime_value: 45.5,
        last_job_at: '2026-03-02T15:00:00Z',
        lapsed: false,
      });
      expect(okBody(await owner.portal('GET', '/customers?lapsed=true')).data).toHaveLength(0);

      clock.advance(91 * 24 * 60 * 60 * 1000);
      const later = expectOk(await owner.portal('GET', '/customers/lin%40example.com'));
      expect(later.body.lapsed).toBe(true);
      const lapsed = expectOk(await owner.portal('GET', '/customers?lapsed=true'));
      expect(lapsed.body.data.map((c) => c.email)).toEqual(['lin@example.com']);
      const active = expectOk(await owner.portal('GET', '/customers?lapsed=false'));
      expect(active.body.data.map((c) => c.email)).not.toContain('lin@example.com');

      const winback = await owner.portal('POST', '/customers/lin%40example.com/winback', {
        body: { offer: '15 % off your next visit' },
      });
      expectStatus(winback, 201);
      expect(winback.body.message).toMatchObject({
        kind: 'winback',
        to: 'lin@example.com',
        status: 'queued',
      });
      expect(winback.body.message.body).toContain('15 % off your next visit');
      expect(winback.body.message.subject).toContain('Sparkle Cleaning');
    } finally {
      await local.stop();
    }
  });
});
