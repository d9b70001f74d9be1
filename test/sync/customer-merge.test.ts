import { describe, expect, it } from 'vitest';
import { setOnline } from '../../server/context';
import { createKey } from '../../server/domain/api-keys';
import { addNote, createCustomer } from '../../server/domain/customers';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { serversStoppedAfterEach, type TestServer } from '../helpers/server';

const started = serversStoppedAfterEach();

async function customersOf(server: TestServer, accountId: string) {
  return server.ctx.db
    .selectFrom('customers')
    .select(['id', 'name', 'email', 'phone'])
    .where('account_id', '=', accountId)
    .orderBy('id')
    .execute();
}

describe('customers without e-mail across devices', () => {
  it('two customers without e-mail added on two devices stay two', async () => {
    const hub = await started();
    const account = await hub.createAccount({ business: 'Sparkle' });
    const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Van' } }));
    const van = await started();
    await van.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van');
    setOnline(van.ctx, false);
    await createCustomer(van.ctx, account.clientId, { name: 'Walk-in', phone: '604 555 0101' });
    await account.portal('POST', '/customers', { body: { name: 'Walk-in', phone: '604 555 0102' } });
    setOnline(van.ctx, true);
    await van.ctx.sync!.syncNow(account.clientId);
    await hub.ctx.sync!.syncNow(account.clientId);
    await van.ctx.sync!.syncNow(account.clientId);
    for (const server of [hub, van]) {
      const rows = await customersOf(server, account.clientId);
      expect(rows.map((c) => [c.name, c.email, c.phone])).toEqual([
        ['Walk-in', null, '604 555 0101'],
        ['Walk-in', null, '604 555 0102'],
      ]);
    }
  });

  it("an owner's merge reaches every device, and what another device did meanwhile lands on the survivor", async () => {
    const hub = await started();
    const account = await hub.createAccount({ business: 'Sparkle' });
    const hank = okBody(
      await account.portal('POST', '/customers', { body: { name: 'Hank Miller', phone: '604 555 0199' } }),
    );
    const dup = okBody(
      await account.portal('POST', '/customers', {
        body: { name: 'H. Miller', email: 'hank@example.com', tags: ['strata'] },
      }),
    );
    const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Van' } }));
    const van = await started();
    await van.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van');

    // The van, offline, books the duplicate while the office merges it away.
    setOnline(van.ctx, false);
    await addNote(van.ctx, account.clientId, dup.id, 'Side gate sticks');
    const { key } = await createKey(van.ctx, account.clientId, { kind: 'portal' });
    const job = await van.request('POST', `/api/portal/${account.clientId}/jobs/create`, {
      key,
      body: { customer_id: dup.id, title: 'Gutters' },
    });
    expectStatus(job, 201);
    const merged = await account.portal('POST', `/customers/${hank.id}/merge`, { body: { from: dup.id } });
    expectStatus(merged, 200);
    await hub.ctx.sync!.syncNow(account.clientId);
    setOnline(van.ctx, true);
    await van.ctx.sync!.syncNow(account.clientId);
    await hub.ctx.sync!.syncNow(account.clientId);
    await van.ctx.sync!.syncNow(account.clientId);

    for (const server of [hub, van]) {
      const rows = await customersOf(server, account.clientId);
      expect(rows, server.url).toEqual([
        { id: hank.id, name: 'Hank Miller', email: 'hank@example.com', phone: '604 555 0199' },
      ]);
      const jobs = await server.ctx.db.selectFrom('jobs').select(['title', 'customer_id']).execute();
      expect(jobs).toEqual([{ title: 'Gutters', customer_id: hank.id }]);
      const notes = await server.ctx.db
        .selectFrom('customer_notes')
        .select(['customer_id', 'text'])
        .execute();
      expect(notes).toEqual([{ customer_id: hank.id, text: 'Side gate sticks' }]);
      const tags = await server.ctx.db.selectFrom('customer_tags').select(['customer_id', 'tag']).execute();
      expect(tags).toEqual([{ customer_id: hank.id, tag: 'strata' }]);
    }
  });
});
