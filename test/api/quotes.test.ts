import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const clock = manualClock('2026-11-22T15:00:00Z');
let server: TestServer;
let shop: TestAccount;

const quoteBody = {
  customer_name: 'Grace Hopper',
  customer_email: 'grace@example.com',
  items: [
    { description: 'Spring garden clean-up', quantity: 1, unit_price: 350 },
    { description: 'Mulch (bags)', quantity: 12, unit_price: 6.25 },
  ],
  taxes: [{ name: 'HST', rate: 0.13 }],
  valid_days: 15,
};

async function create(body: Record<string, unknown> = quoteBody) {
  const created = await shop.portal('POST', '/quotes/create', { body });
  expectStatus(created, 201);
  return created.body;
}

async function sent(body: Record<string, unknown> = quoteBody) {
  const quote = await create(body);
  const response = await shop.portal('POST', `/quotes/${quote.number}/mark-sent`);
  expectStatus(response, 200);
  return response.body;
}

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

describe('POST /quotes/create', () => {
  it('creates a draft quote valid for valid_days', async () => {
    const quote = await create({ ...quoteBody, total: 1 });
    expect(quote).toMatchObject({
      object: 'quote',
      number: 'Q-0001',
      status: 'draft',
      customer: { name: 'Grace Hopper', email: 'grace@example.com' },
      subtotal: 425,
      tax_total: 55.25,
      total: 480.25,
      currency: 'CAD',
      issue_date: '2026-11-22',
      valid_until: '2026-12-07',
      job_id: null,
    });
    expect(quote.id).toMatch(/^quo_/);
  });

  it('defaults valid_days from config and refuses due_days', async () => {
    const { valid_days: _v, ...bare } = quoteBody;
    expect((await create(bare)).valid_until).toBe('2026-12-22');
    const wrong = await shop.portal('POST', '/quotes/create', { body: { ...bare, due_days: 10 } });
    expectStatus(wrong, 400);
    const bad = expectError(
      await shop.portal('POST', '/quotes/create', {
        body: { ...quoteBody, items: [{ description: '', quantity: 1, unit_price: 1 }] },
      }),
    );
    expect(bad.body.error).toMatchObject({ code: 'validation_failed', param: 'items[0].description' });
  });

  it('needs the platform plan', async () => {
    const basic = await server.createAccount({ plan: 'basic' });
    const refused = await basic.portal('POST', '/quotes/create', { body: quoteBody });
    expectStatus(refused, 403);
    expect(refused.body.error.code).toBe('plan_required');
  });
});

describe('quote answers', () => {
  it('sends, accepts and converts a quote into a job', async () => {
    const draft = await create();
    const queued = expectOk(await shop.portal('POST', `/quotes/${draft.number}/send`));
    expect(queued.body).toMatchObject({ status: 'draft', sent_at: null });
    const mail = await server.ctx.db
      .selectFrom('mail_messages')
      .select(['kind', 'to_address'])
      .where('document_id', '=', draft.id)
      .execute();
    expect(mail).toEqual([{ kind: 'quote', to_address: 'grace@example.com' }]);
    const quote = okBody(await shop.portal('POST', `/quotes/${draft.number}/mark-sent`));
    expect(quote.status).toBe('sent');

    const accepted = expectOk(await shop.portal('POST', `/quotes/${quote.number}/accept`));
    expect(accepted.body).toMatchObject({ status: 'accepted', accepted_at: '2026-11-22T15:00:00Z' });
    expect((await shop.events('quote.accepted')).at(-1)?.data.object).toEqual(accepted.body);

    const converted = await shop.portal('POST', `/quotes/${quote.number}/convert`);
    expectStatus(converted, 200);
    expect(converted.body.status).toBe('converted');
    const job = await server.ctx.db
      .selectFrom('jobs')
      .selectAll()
      .where('id', '=', converted.body.job_id)
      .executeTakeFirstOrThrow();
    expect(job).toMatchObject({ title: 'Spring garden clean-up', price_cents: 48025, quote_id: quote.id });

    const twice = await shop.portal('POST', `/quotes/${quote.number}/convert`);
    expectStatus(twice, 409);
    expect(twice.body.error.code).toBe('invalid_state');
  });

  it('declines a quote and refuses to accept it after', async () => {
    const quote = await sent();
    const declined = expectOk(await shop.portal('POST', `/quotes/${quote.number}/decline`));
    expect(declined.body.status).toBe('declined');
    expect((await shop.events('quote.declined')).at(-1)?.data.object).toEqual(declined.body);
    const accept = await shop.portal('POST', `/quotes/${quote.number}/accept`);
    expectStatus(accept, 409);
    expect(accept.body.error).toMatchObject({ code: 'invalid_state', type: 'invalid_request_error' });
    expect(accept.body.error.message).toContain('declined');
  });

  it('records a yes heard on the phone on a draft: accepted without sending, its waiting e-mail held back', async () => {
    const draft = await create({ ...quoteBody, customer_email: 'phone-yes@example.com' });
    expect((await shop.portal('POST', `/quotes/${draft.number}/send`)).status).toBe(200);
    const before = (await shop.events('quote.accepted')).map((e) => e.data.object).length;

    const accepted = await shop.portal('POST', `/quotes/${draft.number}/accept`);
    expectStatus(accepted, 200);
    expect(accepted.body).toMatchObject({
      status: 'accepted',
      sent_at: null,
      accepted_at: '2026-11-22T15:00:00Z',
    });
    const events = (await shop.events('quote.accepted')).map((e) => e.data.object);
    expect(events).toHaveLength(before + 1);
    expect(events.at(-1)).toEqual(accepted.body);
    const mail = await server.ctx.db
      .selectFrom('mail_messages')
      .select(['status', 'cancelled_at', 'last_error'])
      .where('document_id', '=', draft.id)
      .execute();
    expect(mail).toEqual([
      {
        status: 'failed',
        cancelled_at: '2026-11-22T15:00:00Z',
        last_error: `Quote ${draft.number} was accepted before this e-mail went out.`,
      },
    ]);
    // Answered once: a second answer, either way, is refused and raises nothing.
    expect((await shop.portal('POST', `/quotes/${draft.number}/accept`)).status).toBe(409);
    expect((await shop.portal('POST', `/quotes/${draft.number}/decline`)).status).toBe(409);
    expect(await shop.events('quote.accepted')).toHaveLength(before + 1);
    expect(okBody(await shop.portal('POST', `/quotes/${draft.number}/convert`)).status).toBe('converted');
  });

  it('records a no on a draft through v1, once', async () => {
    const draft = await create({ ...quoteBody, customer_email: 'phone-no@example.com' });
    const before = (await shop.events('quote.declined')).map((e) => e.data.object).length;
    const declined = await shop.v1('POST', `/quotes/${draft.id}/decline`);
    expectStatus(declined, 200);
    expect(declined.body).toMatchObject({ status: 'declined', sent_at: null });
    expect(await shop.events('quote.declined')).toHaveLength(before + 1);
    expect((await shop.v1('POST', `/quotes/${draft.id}/accept`)).status).toBe(409);
  });

  it('refuses to convert a quote that was not accepted', async () => {
    const draft = await create();
    expect((await shop.portal('POST', `/quotes/${draft.number}/convert`)).status).toBe(409);
    expect((await shop.portal('POST', '/quotes/Q-9999/accept')).status).toBe(404);
  });

  it('refuses to accept a draft past its valid-until date, saying how to fix it', async () => {
    const draft = await create({
      ...quoteBody,
      customer_email: 'late-draft@example.com',
      issue_date: '2026-11-01',
      valid_days: 7,
    });
    const accept = await shop.portal('POST', `/quotes/${draft.number}/accept`);
    expectStatus(accept, 409);
    expect(accept.body.error.message).toContain('change its valid-until date first');
  });

  it('shows expired quotes and refuses to accept them', async () => {
    const quote = await sent({
      ...quoteBody,
      customer_email: 'old@example.com',
      issue_date: '2026-11-10',
      valid_days: 14,
    });
    clock.set('2026-11-25T15:00:00Z');
    try {
      const got = expectOk(await shop.portal('GET', `/quotes/${quote.number}`));
      expect(got.body.status).toBe('expired');
      const listed = expectOk(await shop.portal('GET', '/quotes?status=expired'));
      expect(listed.body.data.map((q: { id: string }) => q.id)).toEqual([quote.id]);
      const accept = await shop.portal('POST', `/quotes/${quote.number}/accept`);
      expectStatus(accept, 409);
      expect(accept.body.error.message).toContain('expired');
    } finally {
      clock.set('2026-11-22T15:00:00Z');
    }
  });
});

describe('listing and drafts', () => {
  it('filters by status and customer, and pages', async () => {
    const drafts = await shop.portal('GET', '/quotes?status=draft&limit=1');
    expectStatus(drafts, 200);
    expect(drafts.body.data.every((q: { status: string }) => q.status === 'draft')).toBe(true);
    expect(drafts.body.pagination.has_more).toBe(true);
    const byEmail = expectOk(await shop.portal('GET', '/quotes?customer_email=old%40example.com'));
    expect(byEmail.body.data).toHaveLength(1);
    expect(expectError(await shop.portal('GET', '/quotes?status=lost')).body.error.param).toBe('status');
  });

  it('patches and deletes a draft only', async () => {
    const quote = await create();
    const patched = expectOk(
      await shop.portal('PATCH', `/quotes/${quote.number}`, {
        body: { valid_until: '2027-01-15', notes: 'Includes disposal' },
      }),
    );
    expect(patched.body).toMatchObject({ valid_until: '2027-01-15', notes: 'Includes disposal' });
    await shop.portal('POST', `/quotes/${quote.number}/mark-sent`);
    expect((await shop.portal('PATCH', `/quotes/${quote.number}`, { body: { notes: 'x' } })).status).toBe(
      409,
    );
    expect((await shop.portal('DELETE', `/quotes/${quote.number}`)).status).toBe(409);
    const draft = await create();
    expect(okBody(await shop.portal('DELETE', `/quotes/${draft.number}`))).toEqual({
      id: draft.id,
      object: 'quote',
      deleted: true,
    });
  });
});
