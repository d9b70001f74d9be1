import { describe, expect, it } from 'vitest';
import { setOnline } from '../../server/context';
import { archiveProperty, createProperty, placeFor, updateProperty } from '../../server/domain/properties';
import { expectOk, okBody } from '../helpers/api-responses';
import { serversStoppedAfterEach } from '../helpers/server';

const started = serversStoppedAfterEach();

describe('places across devices', () => {
  it('merge field by field, and archived beats edited', async () => {
    const hub = await started();
    const account = await hub.createAccount({ business: 'Sparkle' });
    const council = okBody(
      await account.portal('POST', '/customers', { body: { name: 'Strata', phone: '1' } }),
    );
    const place = okBody(
      await account.portal('POST', '/properties', {
        body: { customer_id: council.id, label: 'Building A', street: '100 Harbour St' },
      }),
    );
    const other = okBody(
      await account.portal('POST', '/properties', {
        body: { customer_id: council.id, label: 'Building B', street: '102 Harbour St' },
      }),
    );
    const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Van' } }));
    const van = await started();
    await van.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van');

    // Offline, the van edits both places; the office archives A and relabels B.
    setOnline(van.ctx, false);
    await updateProperty(van.ctx, account.clientId, place.id, { access_notes: 'Gate 4411' });
    await updateProperty(van.ctx, account.clientId, other.id, { access_notes: 'Key safe 9090' });
    expect((await account.portal('POST', `/properties/${place.id}/archive`)).status).toBe(200);
    expect(
      (await account.portal('PATCH', `/properties/${other.id}`, { body: { label: 'Tower B' } })).status,
    ).toBe(200);
    setOnline(van.ctx, true);
    await van.ctx.sync!.syncNow(account.clientId);
    await hub.ctx.sync!.syncNow(account.clientId);
    await van.ctx.sync!.syncNow(account.clientId);

    for (const server of [hub, van]) {
      const rows = await server.ctx.db
        .selectFrom('properties')
        .select(['id', 'label', 'status', 'access_notes'])
        .orderBy('id')
        .execute();
      expect(rows, server.url).toEqual([
        { id: place.id, label: 'Building A', status: 'archived', access_notes: 'Gate 4411' },
        { id: other.id, label: 'Tower B', status: 'active', access_notes: 'Key safe 9090' },
      ]);
    }
    // Archived on the van too: it is changed no more there either.
    await expect(archiveProperty(van.ctx, account.clientId, place.id)).resolves.toMatchObject({
      status: 'archived',
    });
  });

  it('end with exactly one default place when two devices chose different ones while apart', async () => {
    const hub = await started();
    const account = await hub.createAccount({ business: 'Sparkle' });
    const council = okBody(
      await account.portal('POST', '/customers', {
        body: { name: 'Strata', phone: '1', address: '100 Harbour St' },
      }),
    );
    const add = async (label: string, street: string) =>
      okBody(
        await account.portal('POST', '/properties', { body: { customer_id: council.id, label, street } }),
      );
    const b = await add('Building B', '102 Harbour St');
    const c = await add('Building C', '104 Harbour St');
    const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Van' } }));
    const van = await started();
    await van.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van');

    // Apart: the van makes B the default and adds a place D as the default too; later, the office
    // makes C the default. Field by field, B, C and D would all come back marked default.
    setOnline(van.ctx, false);
    await updateProperty(van.ctx, account.clientId, b.id, { is_default: true });
    const d = await createProperty(van.ctx, account.clientId, {
      customer_id: council.id,
      label: 'Building D',
      street: '106 Harbour St',
      is_default: true,
    });
    expect(
      (await account.portal('PATCH', `/properties/${c.id}`, { body: { is_default: true } })).status,
    ).toBe(200);
    setOnline(van.ctx, true);
    for (let round = 0; round < 2; round += 1) {
      await van.ctx.sync!.syncNow(account.clientId);
      await hub.ctx.sync!.syncNow(account.clientId);
    }
    await van.ctx.sync!.syncNow(account.clientId);

    for (const server of [hub, van]) {
      const rows = await server.ctx.db
        .selectFrom('properties')
        .select(['id', 'is_default'])
        .where('customer_id', '=', council.id)
        .orderBy('id')
        .execute();
      expect(rows, server.url).toHaveLength(4);
      // The choice made last (the office's) is the one default, on every machine.
      expect(
        rows.filter((r) => r.is_default === 1).map((r) => r.id),
        server.url,
      ).toEqual([c.id]);
      expect(rows.map((r) => r.id)).toContain(d.id);
    }
    // New work for the council goes to C on both.
    expect((await placeFor(van.ctx.db, account.clientId, council.id, undefined))?.id).toBe(c.id);
  });
});
