import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  server = await startTestServer();
  shop = await server.createAccount();
});
afterAll(() => server.stop());

describe('properties (places)', () => {
  it("books a strata council's three buildings, with gate codes, on both interfaces", async () => {
    const council = okBody(
      await shop.portal('POST', '/customers', {
        body: { name: 'Harbour Strata Council', phone: '604 555 0123' },
      }),
    );
    const a = await shop.portal('POST', '/properties', {
      body: {
        customer_id: council.id,
        label: 'Building A',
        street: '100 Harbour St',
        city: 'Vancouver',
        region: 'BC',
        postal_code: 'V6B 1A1',
        country: 'Canada',
        access_notes: 'Gate code 4411',
      },
    });
    expectStatus(a, 201);
    expect(a.body).toMatchObject({
      object: 'property',
      is_default: true,
      status: 'active',
      access_notes: 'Gate code 4411',
    });
    const b = await shop.v1('POST', '/properties', {
      body: { customer_id: council.id, label: 'Building B', street: '102 Harbour St', unit: 'Lobby' },
    });
    expectStatus(b, 201);
    expect(b.body.is_default).toBe(false);
    const c = expectOk(
      await shop.portal('POST', '/properties', {
        body: { customer_id: council.id, label: 'Building C', street: '104 Harbour St', is_default: true },
      }),
    );
    expect(c.body.is_default).toBe(true);

    const listed = expectOk(await shop.v1('GET', `/properties?customer_id=${council.id}`));
    expect(listed.body.data.map((p: any) => [p.label, p.is_default])).toEqual([
      ['Building C', true],
      ['Building B', false],
      ['Building A', false],
    ]);
    const other = okBody(await shop.portal('POST', '/customers', { body: { name: 'Other', phone: '1' } }));
    expect(okBody(await shop.portal('GET', `/properties?customer_id=${other.id}`)).data).toEqual([]);

    const edited = await shop.portal('PATCH', `/properties/${b.body.id}`, {
      body: { access_notes: 'Key safe 9090; dog in unit 3', unit: null },
    });
    expectStatus(edited, 200);
    expect(edited.body).toMatchObject({ access_notes: 'Key safe 9090; dog in unit 3', unit: null });
    expect(okBody(await shop.v1('GET', `/properties/${b.body.id}`)).access_notes).toBe(
      'Key safe 9090; dog in unit 3',
    );

    // Archiving the default hands it to the newest other active place.
    const archived = expectOk(await shop.v1('POST', `/properties/${c.body.id}/archive`));
    expect(archived.body).toMatchObject({ status: 'archived', is_default: false });
    expect(okBody(await shop.portal('GET', `/properties/${b.body.id}`)).is_default).toBe(true);
    const refused = await shop.portal('PATCH', `/properties/${c.body.id}`, { body: { label: 'C again' } });
    expectStatus(refused, 409);
    const active = expectOk(await shop.portal('GET', `/properties?customer_id=${council.id}&status=active`));
    expect(active.body.data.map((p: any) => p.label)).toEqual(['Building B', 'Building A']);

    const events = okBody(await shop.v1('GET', '/events?type=property.archived')).data;
    expect(events.map((e: any) => e.data.object.id)).toEqual([c.body.id]);
    expect(okBody(await shop.v1('GET', '/events?type=property.created')).data).toHaveLength(3);
    expect(okBody(await shop.v1('GET', '/events?type=property.updated')).data).toHaveLength(1);
  });

  it('refuses bad input in the contract shape, and keeps each account to its own places', async () => {
    const customer = okBody(await shop.portal('POST', '/customers', { body: { name: 'Ada', phone: '2' } }));
    const noStreet = await shop.portal('POST', '/properties', { body: { customer_id: customer.id } });
    expectStatus(noStreet, 400);
    expect(noStreet.body.error.param).toBe('street');
    const unknown = await shop.v1('POST', '/properties', { body: { customer_id: 'cus_nope', street: 'x' } });
    expectStatus(unknown, 400);
    expect(unknown.body.error.param).toBe('customer_id');
    const place = okBody(
      await shop.portal('POST', '/properties', { body: { customer_id: customer.id, street: '1 Main' } }),
    );
    const undefault = await shop.portal('PATCH', `/properties/${place.id}`, { body: { is_default: false } });
    expectStatus(undefault, 400);

    const other = await server.createAccount({ business: 'Other' });
    expect((await other.v1('GET', `/properties/${place.id}`)).status).toBe(404);
    expect(
      (await other.v1('POST', '/properties', { body: { customer_id: customer.id, street: 'x' } })).status,
    ).toBe(400);
    // The portal takes the portal key (or the UI), not a v1 key nor another account's.
    expect((await shop.portal('GET', '/properties', { key: shop.v1Key })).status).toBe(403);
    expect((await shop.portal('GET', '/properties', { key: other.portalKey })).status).toBe(403);
    expect((await shop.v1('GET', '/properties', { key: shop.portalKey })).status).toBe(403);
  });

  it('moves with its customer when two customers are merged', async () => {
    const first = okBody(await shop.portal('POST', '/customers', { body: { name: 'Bea', phone: '3' } }));
    const second = okBody(await shop.portal('POST', '/customers', { body: { name: 'Bea B', phone: '4' } }));
    const kept = okBody(
      await shop.portal('POST', '/properties', { body: { customer_id: first.id, street: '1 First St' } }),
    );
    const moved = okBody(
      await shop.portal('POST', '/properties', { body: { customer_id: second.id, street: '2 Second St' } }),
    );
    expect(
      (await shop.portal('POST', `/customers/${first.id}/merge`, { body: { from: second.id } })).status,
    ).toBe(200);
    const places = okBody(await shop.portal('GET', `/properties?customer_id=${first.id}`)).data;
    expect(places.map((p: any) => [p.id, p.is_default])).toEqual([
      [moved.id, false],
      [kept.id, true],
    ]);
  });
});
