import { describe, expect, it } from 'vitest';
import { setOnline } from '../../server/context';
import { deleteCustomer } from '../../server/domain/customers';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { serversStoppedAfterEach } from '../helpers/server';

const started = serversStoppedAfterEach();

const invoice = (email: string, name: string) => ({
  customer_email: email,
  customer_name: name,
  items: [{ description: 'Deep clean', quantity: 3, unit_price: 33.33 }],
  taxes: [
    { name: 'GST', rate: 0.05 },
    { name: 'PST', rate: 0.07 },
  ],
});

describe('sync between a hub and a device', () => {
  it('pairs, joins, and carries edits both ways', async () => {
    const hub = await started();
    const account = await hub.createAccount({ business: 'Sparkle' });
    const created = await account.portal('POST', '/invoices/create', {
      body: invoice('ada@example.com', 'Ada'),
    });
    expectStatus(created, 201);

    const pairing = await account.portal('POST', '/sync/pair', { body: { name: 'Van laptop' } });
    expectStatus(pairing, 200);
    expect(pairing.body.pairing_code).toMatch(/^[0-9A-Z]{5}-[0-9A-Z]{5}$/);

    const device = await started();
    const joined = await device.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van laptop');
    expect(joined.client_id).toBe(account.clientId);

    const customers = device.ctx.db
      .selectFrom('customers')
      .selectAll()
      .where('account_id', '=', account.clientId);
    expect((await customers.execute()).map((c) => c.email)).toEqual(['ada@example.com']);
    const inv = await device.ctx.db.selectFrom('invoices').selectAll().executeTakeFirstOrThrow();
    expect(inv.total_cents).toBe(11199);

    // A second use of the code is refused.
    const again = await device.request('POST', '/api/sync/v1/join', {
      body: { code: pairing.body.pairing_code },
    });
    expectStatus(again, 401);
    expect(again.body.error.code).toBe('pairing_code_invalid');

    await hub.ctx.sync!.syncNow(account.clientId);
    const status = expectOk(await account.portal('GET', '/sync'));
    expect(status.body.role).toBe('hub');
    expect(status.body.devices).toHaveLength(2);
  });

  it('an invoice whose customer was deleted on another device stays readable and is not sent to nobody', async () => {
    const hub = await started();
    const account = await hub.createAccount({ business: 'Sparkle' });
    const bob = await account.portal('POST', '/customers', {
      body: { name: 'Bob', email: 'bob@example.com' },
    });
    expectStatus(bob, 201);
    const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Van laptop' } }));
    const device = await started();
    await device.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van laptop');
    // The van is offline while both change their books: it deletes Bob, the office bills him.
    setOnline(device.ctx, false);
    await deleteCustomer(device.ctx, account.clientId, bob.body.id);
    const created = await account.portal('POST', '/invoices/create', {
      body: invoice('bob@example.com', 'Bob'),
    });
    expectStatus(created, 201);
    await device.ctx.sync!.syncNow(account.clientId);
    await hub.ctx.sync!.syncNow(account.clientId);

    const read = await account.portal('GET', `/invoices/${created.body.id}`);
    expectStatus(read, 200);
    expect(read.body.customer).toEqual({ id: bob.body.id, name: 'Deleted customer', email: '' });
    const sent = await account.portal('POST', `/invoices/${created.body.id}/send`);
    expectStatus(sent, 409);
    expect(sent.body.error.message).toContain('deleted on another device');
  });
});
