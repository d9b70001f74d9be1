import { afterEach, describe, expect, it } from 'vitest';
import { setOnline } from '../../server/context';
import { deleteCustomer, updateCustomer } from '../../server/domain/customers';
import { listHistory } from '../../server/domain/record-history';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function started(clock: ReturnType<typeof manualClock>): Promise<TestServer> {
  const server = await startTestServer({ clock });
  servers.push(server);
  return server;
}

/** A hub and a van laptop joined to it, the van's background loop off (it is "cut off"). */
async function hubAndVan() {
  const hubClock = manualClock('2026-11-23T09:00:00Z');
  const vanClock = manualClock('2026-11-23T09:00:00Z');
  const hub = await started(hubClock);
  const shop = await hub.createAccount({ business: 'Sparkle' });
  const pairing = expectOk(await shop.portal('POST', '/sync/pair', { body: { name: 'Van laptop' } }));
  const van = await started(vanClock);
  await van.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van laptop');
  setOnline(van.ctx, false);
  const sync = async () => {
    await van.ctx.sync!.syncNow(shop.clientId);
    await hub.ctx.sync!.syncNow(shop.clientId);
    await van.ctx.sync!.syncNow(shop.clientId);
  };
  const advance = (ms: number) => {
    hubClock.advance(ms);
    vanClock.advance(ms);
  };
  return { hub, van, shop, sync, advance };
}

describe('a value sync replaced shows in the history, and comes back in one click', () => {
  it('hub …1111 while cut off, van …2222 later: the hub sees its edit replaced and puts it back everywhere', async () => {
    const { hub, van, shop, sync, advance } = await hubAndVan();
    const ada = await shop.portal('POST', '/customers', {
      body: { name: 'Ada', email: 'ada@example.com', phone: '+1 416 555 0000' },
    });
    expectStatus(ada, 201);
    await sync();

    advance(60_000);
    const onHub = await shop.portal('PATCH', '/customers/ada@example.com', {
      body: { phone: '+1 416 555 1111' },
    });
    expectStatus(onHub, 200);
    await hub.ctx.sync!.syncNow(shop.clientId);
    advance(60_000);
    await updateCustomer(van.ctx, shop.clientId, 'ada@example.com', { phone: '+1 416 555 2222' });
    await sync();

    const phoneOn = async (server: TestServer) =>
      (
        await server.ctx.db
          .selectFrom('customers')
          .select('phone')
          .where('id', '=', ada.body.id)
          .executeTakeFirst()
      )?.phone;
    expect(await phoneOn(hub)).toBe('+1 416 555 2222');
    expect(await phoneOn(van)).toBe('+1 416 555 2222');

    const history = await shop.portal('GET', `/history?record=customers/${ada.body.id}`);
    expectStatus(history, 200);
    const [replaced, typed] = history.body.data;
    expect(replaced).toMatchObject({
      record: `customers/${ada.body.id}`,
      field: 'phone',
      old_value: '+1 416 555 1111',
      new_value: '+1 416 555 2222',
      // The van's edit was made by no request: Shopdesk itself, on the van.
      author: 'system',
      author_name: 'Shopdesk',
      device: { this_device: false, name: 'Van laptop' },
      replaced: true,
      restorable: true,
    });
    expect(typed).toMatchObject({
      field: 'phone',
      old_value: '+1 416 555 0000',
      new_value: '+1 416 555 1111',
      device: { this_device: true },
      replaced: false,
      restorable: false,
    });
    // The van's own edit is in its history, made there.
    const vanHistory = await listHistory(van.ctx, shop.clientId, 'customers', ada.body.id);
    expect(vanHistory[0]).toMatchObject({ new_value: '+1 416 555 2222', device: { this_device: true } });

    advance(60_000);
    const restored = await shop.portal('POST', `/history/${replaced!.id}/restore`);
    expectStatus(restored, 200);
    expect(restored.body).toMatchObject({ id: replaced!.id, restorable: false });
    expect(restored.body.restored_at).toBe('2026-11-23T09:03:00Z');
    await sync();
    expect(await phoneOn(hub)).toBe('+1 416 555 1111');
    expect(await phoneOn(van)).toBe('+1 416 555 1111');

    const again = await shop.portal('POST', `/history/${replaced!.id}/restore`);
    expectStatus(again, 409);
    expect(again.body.error.code).toBe('invalid_state');
    const after = expectOk(await shop.portal('GET', `/history?record=customers/${ada.body.id}`));
    expect(after.body.data[0]).toMatchObject({
      field: 'phone',
      old_value: '+1 416 555 2222',
      new_value: '+1 416 555 1111',
      device: { this_device: true },
    });
  });
});

describe('decisions are shared', () => {
  it('a document made for a customer deleted elsewhere is listed on both machines, and dealt with once', async () => {
    const { hub, van, shop, sync, advance } = await hubAndVan();
    const bob = expectOk(
      await shop.portal('POST', '/customers', { body: { name: 'Bob', email: 'bob@example.com' } }),
    );
    await sync();
    advance(60_000);
    await deleteCustomer(van.ctx, shop.clientId, bob.body.id);
    const created = await shop.portal('POST', '/invoices/create', {
      body: {
        customer_email: 'bob@example.com',
        customer_name: 'Bob',
        items: [{ description: 'Deep clean', quantity: 1, unit_price: 90 }],
      },
    });
    expectStatus(created, 201);
    await sync();
    await hub.ctx.sync!.syncNow(shop.clientId);

    const id = `customer_deleted:${created.body.id}`;
    const onHub = await hub.ctx.sync!.conflicts(shop.clientId);
    const onVan = await van.ctx.sync!.conflicts(shop.clientId);
    expect(onHub.map((c) => c.id)).toEqual([id]);
    expect(onVan.map((c) => c.id)).toEqual([id]);
    expect(okBody(await shop.portal('GET', '/sync')).conflicts).toBe(1);

    await van.ctx.sync!.resolveConflict(shop.clientId, id);
    await sync();
    expect(await hub.ctx.sync!.conflicts(shop.clientId)).toEqual([]);
    expect(await van.ctx.sync!.conflicts(shop.clientId)).toEqual([]);
    const listed = expectOk(await shop.portal('GET', '/sync/conflicts'));
    expect(listed.body.data).toEqual([]);
  });
});

describe('a decision names a record that stands', () => {
  it('a document listed for its deleted customer, then deleted itself, is listed nowhere', async () => {
    const { hub, van, shop, sync, advance } = await hubAndVan();
    const bob = expectOk(
      await shop.portal('POST', '/customers', { body: { name: 'Bob', email: 'bob@example.com' } }),
    );
    await sync();
    advance(60_000);
    await deleteCustomer(van.ctx, shop.clientId, bob.body.id);
    const created = expectOk(
      await shop.portal('POST', '/invoices/create', {
        body: {
          customer_email: 'bob@example.com',
          customer_name: 'Bob',
          items: [{ description: 'Deep clean', quantity: 1, unit_price: 90 }],
        },
      }),
    );
    await sync();
    await hub.ctx.sync!.syncNow(shop.clientId);
    expect((await van.ctx.sync!.conflicts(shop.clientId)).map((c) => c.id)).toEqual([
      `customer_deleted:${created.body.id}`,
    ]);

    // The draft goes: the van, pulling its deletion, finds no record left to pick a customer for
    // (a paid invoice voided, then deleted as a draft on a third device, is the same case).
    advance(60_000);
    expect((await shop.portal('DELETE', `/invoices/${created.body.number}`)).status).toBe(200);
    await sync();
    expect(await hub.ctx.sync!.conflicts(shop.clientId)).toEqual([]);
    expect(await van.ctx.sync!.conflicts(shop.clientId)).toEqual([]);
    expect(okBody(await shop.portal('GET', '/sync')).conflicts).toBe(0);
  });
});
