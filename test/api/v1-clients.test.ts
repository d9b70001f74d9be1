import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isoNow, manualClock } from '../../server/lib/clock';
import { newId } from '../../server/lib/ids';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

const clock = manualClock('2026-11-22T09:00:00Z');
let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer({ clock });
  shop = await server.createAccount();
});
afterAll(() => server.stop());

/** Inserts customers straight into the table: paging tests need a thousand rows fast. */
async function insertCustomers(accountId: string, count: number, label: string): Promise<string[]> {
  const now = isoNow(clock);
  const rows = Array.from({ length: count }, (_, i) => {
    const email = `${label}-${i}@example.com`;
    return {
      id: newId('cus', clock.now().getTime()),
      account_id: accountId,
      name: `${label} ${i}`,
      email,
      email_lower: email,
      phone: null,
      address: null,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    };
  });
  for (let i = 0; i < rows.length; i += 200) {
    await server.ctx.db
      .insertInto('customers')
      .values(rows.slice(i, i + 200))
      .execute();
  }
  return rows.map((r) => r.id);
}

describe('v1 clients', () => {
  it('creates, gets, updates and deletes a client', async () => {
    const created = await shop.v1('POST', '/clients', {
      body: { name: 'Ada Lovelace', email: 'Ada@Example.com', phone: '555-0100', tags: ['VIP'] },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({ object: 'customer', name: 'Ada Lovelace', tags: ['vip'] });
    expect(created.body.id).toMatch(/^cus_/);

    const got = await shop.v1('GET', `/clients/${created.body.id}`);
    expectStatus(got, 200);
    expect(got.body).toEqual(created.body);

    clock.advance(60_000);
    const updated = await shop.v1('PATCH', `/clients/${created.body.id}`, {
      body: { phone: null, address: '1 Engine St' },
    });
    expectStatus(updated, 200);
    expect(updated.body).toMatchObject({ phone: null, address: '1 Engine St', name: 'Ada Lovelace' });
    expect(updated.body.updated_at).toBe('2026-11-22T09:01:00Z');

    const deleted = await shop.v1('DELETE', `/clients/${created.body.id}`);
    expectStatus(deleted, 200);
    expect(deleted.body).toEqual({ id: created.body.id, object: 'customer', deleted: true });
    expect((await shop.v1('GET', `/clients/${created.body.id}`)).status).toBe(404);
    expect((await shop.v1('DELETE', `/clients/${created.body.id}`)).status).toBe(404);
  });

  it('adds and removes tags and notes', async () => {
    const client = expectOk(
      await shop.v1('POST', '/clients', {
        body: { name: 'Tagged', email: 'tagged@example.com' },
      }),
    );
    const tagged = expectOk(
      await shop.v1('POST', `/clients/${client.body.id}/tags`, {
        body: { tags: ['Weekly', 'vip'] },
      }),
    );
    expect(tagged.body.tags).toEqual(['vip', 'weekly']);
    const untagged = expectOk(await shop.v1('DELETE', `/clients/${client.body.id}/tags/VIP`));
    expect(untagged.body.tags).toEqual(['weekly']);
    const noted = await shop.v1('POST', `/clients/${client.body.id}/notes`, {
      body: { text: 'Gate code 1234' },
    });
    expectStatus(noted, 201);
    expect(noted.body.notes.map((n: { text: string }) => n.text)).toEqual(['Gate code 1234']);
  });

  it('is the same record as the portal customer, both ways', async () => {
    const viaV1 = expectOk(
      await shop.v1('POST', '/clients', {
        body: { name: 'Grace Hopper', email: 'grace@example.com' },
      }),
    );
    const inPortal = await shop.portal('GET', '/customers/grace%40example.com');
    expectStatus(inPortal, 200);
    expect(inPortal.body).toMatchObject(viaV1.body);

    const viaPortal = expectOk(
      await shop.portal('POST', '/customers', {
        body: { name: 'Alan Turing', email: 'alan@example.com' },
      }),
    );
    const inV1 = expectOk(await shop.v1('GET', `/clients/${viaPortal.body.id}`));
    expect(inV1.body).toEqual(viaPortal.body);
    const list = expectOk(await shop.v1('GET', '/clients?q=turing'));
    expect(list.body.data.map((c: { id: string }) => c.id)).toEqual([viaPortal.body.id]);
  });

  it('refuses a duplicate e-mail with 409 conflict', async () => {
    const again = await shop.v1('POST', '/clients', { body: { name: 'Grace', email: 'GRACE@example.com' } });
    expectStatus(again, 409);
    expect(again.body.error).toMatchObject({ code: 'conflict', param: 'email' });
  });

  it('refuses invalid bodies and queries with 400 and the failing param', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['POST', '/clients', { name: 'X', email: 'not-an-email' }, 'email'],
      ['POST', '/clients', { email: 'x@example.com' }, 'name'],
      ['GET', '/clients?limit=0', undefined, 'limit'],
      ['GET', '/clients?limit=101', undefined, 'limit'],
      ['GET', '/clients?cursor=nonsense', undefined, 'cursor'],
      ['GET', '/clients?created_after=yesterday', undefined, 'created_after'],
      ['GET', '/clients?created_before=2026-13-01T00:00:00Z', undefined, 'created_before'],
      ['GET', '/clients?updated_since=2026-11-22', undefined, 'updated_since'],
      ['GET', '/clients?lapsed=maybe', undefined, 'lapsed'],
    ];
    for (const [method, path, body, param] of cases) {
      const bad = expectError(await shop.v1(method, path, { body }));
      expect(bad.status, `${method} ${path}`).toBe(400);
      expect(bad.body.error.code).toBe('validation_failed');
      expect(bad.body.error.param, `${method} ${path}`).toBe(param);
    }
    const unknownField = await shop.v1('POST', '/clients', {
      body: { name: 'X', email: 'x@example.com', colour: 'red' },
    });
    expectStatus(unknownField, 400);
    expect(unknownField.body.error.message).toContain('colour');
    expect(unknownField.body.error.param).toBe('colour');
    const malformed = await shop.v1('POST', '/clients', {
      rawBody: '{"name": ',
      headers: { 'content-type': 'application/json' },
    });
    expectStatus(malformed, 400);
    const notJson = await shop.v1('POST', '/clients', {
      rawBody: 'name=x',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expectStatus(notJson, 415);
  });

  it('filters by created_after, created_before and updated_since', async () => {
    const shopB = await server.createAccount();
    clock.set('2026-11-23T10:00:00Z');
    const early = expectOk(
      await shopB.v1('POST', '/clients', { body: { name: 'Early', email: 'early@example.com' } }),
    );
    clock.set('2026-11-24T10:00:00Z');
    const late = expectOk(
      await shopB.v1('POST', '/clients', { body: { name: 'Late', email: 'late@example.com' } }),
    );
    clock.set('2026-11-25T10:00:00Z');
    await shopB.v1('PATCH', `/clients/${early.body.id}`, { body: { phone: '555' } });

    const ids = async (query: string) =>
      okBody(await shopB.v1('GET', `/clients?${query}`)).data.map((c: { id: string }) => c.id);
    expect(await ids('created_after=2026-11-24T00:00:00Z')).toEqual([late.body.id]);
    expect(await ids('created_before=2026-11-24T00:00:00Z')).toEqual([early.body.id]);
    // Any offset is accepted and compared as the instant it names.
    expect(await ids(`created_after=${encodeURIComponent('2026-11-24T11:00:00+02:00')}`)).toEqual([
      late.body.id,
    ]);
    expect(await ids('updated_since=2026-11-25T00:00:00Z')).toEqual([early.body.id]);
  });

  it('pages through 1,000 clients 7 at a time while others are added, skipping and repeating none', async () => {
    const shopC = await server.createAccount();
    const original = await insertCustomers(shopC.clientId, 1000, 'bulk');
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const path: `/clients?${string}` = cursor ? `/clients?limit=7&cursor=${cursor}` : '/clients?limit=7';
      const page = await shopC.v1('GET', path);
      expectStatus(page, 200);
      expect(page.body.data.length).toBeLessThanOrEqual(7);
      seen.push(...page.body.data.map((c: { id: string }) => c.id));
      cursor = page.body.pagination.next_cursor;
      expect(page.body.pagination.has_more).toBe(cursor !== null);
      pages++;
      if (pages % 10 === 0) {
        await insertCustomers(shopC.clientId, 3, `during-${pages}`);
        await shopC.v1('POST', '/clients', { body: { name: 'New', email: `new-${pages}@example.com` } });
      }
    } while (cursor);
    expect(pages).toBe(143);
    expect(seen).toEqual([...original].reverse());
  });
});
