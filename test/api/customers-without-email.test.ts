import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import {
  type ListPage,
  type StoredEvent,
  startTestServer,
  type TestAccount,
  type TestServer,
} from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
});
afterAll(() => server.stop());

const items = [{ description: 'Deep clean', quantity: 1, unit_price: 120 }];

describe('customers without e-mail', () => {
  it('adds Hank by phone and address, on both interfaces, and reaches him by id', async () => {
    const hank = await shop.portal('POST', '/customers', {
      body: { name: 'Hank Miller', phone: '604 555 0199', address: '12 Main St, Vancouver' },
    });
    expectStatus(hank, 201);
    expect(hank.body).toMatchObject({ name: 'Hank Miller', email: null, phone: '604 555 0199' });
    const walkIn = await shop.v1('POST', '/clients', {
      body: { name: 'Walk-in', address: 'Market stall 4' },
    });
    expectStatus(walkIn, 201);
    expect(walkIn.body.email).toBeNull();
    // Two customers without e-mail are two customers.
    const again = await shop.portal('POST', '/customers', {
      body: { name: 'Hank Miller', phone: '604 555 0100' },
    });
    expectStatus(again, 201);
    expect(again.body.id).not.toBe(hank.body.id);

    const byId = expectOk(await shop.portal('GET', `/customers/${hank.body.id}`));
    expect(byId.body).toMatchObject({ id: hank.body.id, email: null, history: { invoices: [] } });
    expect(okBody(await shop.v1('GET', `/clients/${walkIn.body.id}`)).name).toBe('Walk-in');
    const noted = await shop.portal('POST', `/customers/${hank.body.id}/notes`, {
      body: { text: 'Gate code 1234' },
    });
    expectStatus(noted, 201);
    const events = okBody(
      await shop.v1<ListPage<StoredEvent<{ id: string; email: string | null }>>>(
        'GET',
        '/events?type=customer.created',
      ),
    ).data;
    expect(events.find((e) => e.data.object.id === hank.body.id)!.data.object.email).toBeNull();
  });

  it('refuses a customer with no way to reach them, and an update that would leave none', async () => {
    for (const body of [{ name: 'Nobody' }, { name: 'Blank', email: null, phone: '', address: '  ' }]) {
      const refused = expectError(await shop.portal('POST', '/customers', { body }));
      expect(refused.status, JSON.stringify(body)).toBe(400);
      expect(refused.body.error.code).toBe('validation_failed');
      expect(refused.body.error.message).toContain('at least one way to reach them');
    }
    const onV1 = await shop.v1('POST', '/clients', { body: { name: 'Nobody' } });
    expectStatus(onV1, 400);
    expect(onV1.body.error.message).toContain('e-mail, a phone or an address');

    const ada = expectOk(
      await shop.portal('POST', '/customers', {
        body: { name: 'Ada', email: 'ada-reach@example.com', phone: '416 555 0100' },
      }),
    );
    const dropped = await shop.portal('PATCH', `/customers/${ada.body.id}`, { body: { email: null } });
    expectStatus(dropped, 200);
    expect(dropped.body.email).toBeNull();
    const none = await shop.portal('PATCH', `/customers/${ada.body.id}`, { body: { phone: null } });
    expectStatus(none, 400);
    expect(none.body.error.message).toContain('at least one way to reach them');
    expect(okBody(await shop.portal('GET', `/customers/${ada.body.id}`)).phone).toBe('416 555 0100');
  });

  it('names the customer by id on every create, and says plainly why nothing can be e-mailed', async () => {
    const hank = okBody(
      await shop.portal('POST', '/customers', { body: { name: 'Hank Send', phone: '604 555 0111' } }),
    );
    const invoice = await shop.portal('POST', '/invoices/create', { body: { customer_id: hank.id, items } });
    expectStatus(invoice, 201);
    expect(invoice.body.customer).toEqual({ id: hank.id, name: 'Hank Send', email: null });
    const sent = await shop.portal('POST', `/invoices/${invoice.body.number}/send`);
    expectStatus(sent, 409);
    expect(sent.body.error.code).toBe('no_email');
    expect(sent.body.error.message).toContain('Hank Send has no e-mail address');
    expect(sent.body.error.message).toContain('PDF');
    const pdf = await shop.portal('GET', `/invoices/${invoice.body.number}/pdf`);
    expectStatus(pdf, 200);
    expect(pdf.text.startsWith('%PDF')).toBe(true);

    const quote = await shop.portal('POST', '/quotes/create', { body: { customer_id: hank.id, items } });
    expectStatus(quote, 201);
    const quoteSent = await shop.portal('POST', `/quotes/${quote.body.number}/send`);
    expectStatus(quoteSent, 409);
    expect(quoteSent.body.error.code).toBe('no_email');
    const winback = await shop.portal('POST', `/customers/${hank.id}/winback`, { body: {} });
    expectStatus(winback, 409);
    expect(winback.body.error.message).toContain('cannot be e-mailed');
    expect(okBody(await shop.portal('GET', '/messages')).data).toHaveLength(0);

    const job = await shop.portal('POST', '/jobs/create', {
      body: { customer_id: hank.id, title: 'Windows' },
    });
    expectStatus(job, 201);
    expect(job.body.customer.id).toBe(hank.id);
    const booking = await shop.portal('POST', '/bookings', {
      body: {
        customer_id: hank.id,
        service: 'Clean',
        start: '2030-01-07T17:00:00Z',
        end: '2030-01-07T18:00:00Z',
      },
    });
    expectStatus(booking, 201);
    const v1Job = await shop.v1('POST', '/jobs', { body: { client_id: hank.id, title: 'Gutters' } });
    expectStatus(v1Job, 201);
    expect(v1Job.body.customer).toEqual({ id: hank.id, name: 'Hank Send', email: null });
    const v1Invoice = await shop.v1('POST', '/invoices', { body: { client_id: hank.id, items } });
    expectStatus(v1Invoice, 201);

    const unknown = await shop.portal('POST', '/jobs/create', {
      body: { customer_id: 'cus_nope', title: 'X' },
    });
    expectStatus(unknown, 400);
    expect(unknown.body.error.param).toBe('customer_id');
    const neither = await shop.portal('POST', '/jobs/create', { body: { title: 'X' } });
    expectStatus(neither, 400);
    expect(neither.body.error.message).toContain('send customer_id or customer_email');
  });
});

describe('possible duplicates', () => {
  it('points out the same name and phone, and an e-mail one letter off', async () => {
    const own = await server.createAccount({ business: 'Duplicates' });
    const hank = okBody(
      await own.portal('POST', '/customers', { body: { name: 'Hank Miller', phone: '+1 (604) 555-0199' } }),
    );
    const ada = okBody(
      await own.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } }),
    );
    await own.portal('POST', '/customers', { body: { name: 'Hank Miller', phone: '604 555 0000' } });

    const samePhone = await own.portal(
      'GET',
      `/customers/possible-duplicates?name=${encodeURIComponent(' hank miller')}&phone=6045550199`,
    );
    expectStatus(samePhone, 200);
    expect(samePhone.body.data.map((d: any) => [d.customer.id, d.reason])).toEqual([
      [hank.id, 'same_name_and_phone'],
    ]);
    for (const email of ['ada@exmple.com', 'adaa@example.com', 'ads@example.com', 'ada@example.con']) {
      const similar = expectOk(
        await own.portal('GET', `/customers/possible-duplicates?email=${encodeURIComponent(email)}`),
      );
      expect(
        similar.body.data.map((d: any) => [d.customer.id, d.reason]),
        email,
      ).toEqual([[ada.id, 'similar_email']]);
    }
    const unrelated = expectOk(
      await own.portal('GET', '/customers/possible-duplicates?name=Grace&phone=111&email=grace@example.com'),
    );
    expect(unrelated.body.data).toEqual([]);
    expect((await own.v1('GET', `/customers/possible-duplicates`)).status).toBe(404);
  });
});

describe('merging two customers', () => {
  it('moves every record onto one, which takes the e-mail it lacked', async () => {
    const own = await server.createAccount({ business: 'Merging' });
    const hank = okBody(
      await own.portal('POST', '/customers', {
        body: { name: 'Hank Miller', phone: '604 555 0199', tags: ['strata'] },
      }),
    );
    const dup = okBody(
      await own.portal('POST', '/customers', {
        body: { name: 'H. Miller', email: 'hank@example.com', tags: ['vip', 'strata'] },
      }),
    );
    await own.portal('POST', `/customers/${dup.id}/notes`, { body: { text: 'Prefers mornings' } });
    const invoice = okBody(
      await own.portal('POST', '/invoices/create', { body: { customer_id: dup.id, items } }),
    );
    await own.portal('POST', `/invoices/${invoice.number}/mark-sent`);
    expect(
      (await own.portal('POST', `/invoices/${invoice.number}/payment`, { body: { amount: 50 } })).status,
    ).toBe(200);
    const job = okBody(
      await own.portal('POST', '/jobs/create', { body: { customer_id: dup.id, title: 'Windows' } }),
    );
    const quote = okBody(
      await own.portal('POST', '/quotes/create', { body: { customer_id: dup.id, items } }),
    );
    await own.portal('POST', '/reviews', { body: { rating: 5, customer_id: dup.id } });

    const merged = await own.portal('POST', `/customers/${hank.id}/merge`, {
      body: { from: 'HANK@example.com' },
    });
    expectStatus(merged, 200);
    expect(merged.body).toMatchObject({
      id: hank.id,
      name: 'Hank Miller',
      email: 'hank@example.com',
      phone: '604 555 0199',
      tags: ['strata', 'vip'],
      lifetime_value: 50,
    });
    expect(merged.body.notes.map((n: any) => n.text)).toEqual(['Prefers mornings']);
    expect((await own.portal('GET', `/customers/${dup.id}`)).status).toBe(404);
    const history = okBody(await own.portal('GET', `/customers/${hank.id}`)).history;
    expect(history.invoices.map((i: any) => i.id)).toEqual([invoice.id]);
    expect(history.jobs.map((j: any) => j.id)).toEqual([job.id]);
    expect(history.quotes.map((q: any) => q.id)).toEqual([quote.id]);
    expect(history.reviews).toHaveLength(1);
    expect(okBody(await own.portal('GET', '/customers/hank@example.com')).id).toBe(hank.id);

    const itself = await own.portal('POST', `/customers/${hank.id}/merge`, { body: { from: hank.id } });
    expectStatus(itself, 400);
    const gone = await own.portal('POST', `/customers/${hank.id}/merge`, { body: { from: dup.id } });
    expectStatus(gone, 400);
    expect(gone.body.error.param).toBe('from');
  });

  it('is for the portal key or the UI of the account: a v1 key, another account or a plan without writes cannot merge', async () => {
    const own = await server.createAccount({ business: 'Guarded' });
    const a = okBody(await own.portal('POST', '/customers', { body: { name: 'A', phone: '1' } }));
    const b = okBody(await own.portal('POST', '/customers', { body: { name: 'B', phone: '2' } }));
    const other = await server.createAccount({ business: 'Other' });
    for (const key of [own.v1Key, other.portalKey]) {
      const refused = await own.portal('POST', `/customers/${a.id}/merge`, { body: { from: b.id }, key });
      expectStatus(refused, 403);
      const listed = await own.portal('GET', '/customers/possible-duplicates?name=A&phone=1', { key });
      expectStatus(listed, 403);
    }
    const basic = await server.createAccount({ business: 'Basic', plan: 'basic' });
    const planGate = await basic.portal('POST', `/customers/${a.id}/merge`, { body: { from: b.id } });
    expectStatus(planGate, 403);
    expect((await own.portal('GET', `/customers/${b.id}`)).status).toBe(200);
  });
});
