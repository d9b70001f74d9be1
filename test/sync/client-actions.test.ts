import { describe, expect, it } from 'vitest';
import type { ClientActionsTable } from '../../server/db/schema';
import { updateConfig } from '../../server/domain/accounts';
import { applyPendingActions } from '../../server/domain/client-actions';
import { deleteCustomer } from '../../server/domain/customers';
import { type Clock, manualClock } from '../../server/lib/clock';
import { derivedId, idTime } from '../../server/lib/ids';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { serversStoppedAfterEach, type TestAccount, type TestServer } from '../helpers/server';
import { startReceiver } from '../outbound/receiver';

/**
 * docs/sync.md, invariant 12: a customer's action applied on two devices while they are apart
 * converges to one effect and one event, delivered once (12b); an action one device refuses changes
 * nothing there but its own outcome, and every machine ends on the same answer (12c).
 */
const started = serversStoppedAfterEach();

async function pairedPair(
  clocks: { office?: Clock; van?: Clock } = {},
): Promise<{ office: TestServer; van: TestServer; account: TestAccount }> {
  const office = await started({ clock: clocks.office });
  const van = await started({ clock: clocks.van });
  const account = await office.createAccount({ business: 'Sparkle Cleaning' });
  const pairing = expectOk(await account.portal('POST', '/sync/pair', { body: { name: 'Van' } }));
  await van.ctx.sync!.join({ url: office.url }, pairing.body.pairing_code, 'Van');
  return { office, van, account };
}

async function sentQuote(account: TestAccount): Promise<{ id: string; number: string; customer: string }> {
  const customer = expectOk(
    await account.portal('POST', '/customers', {
      body: { name: 'Maya Chen', email: 'maya@example.com' },
    }),
  );
  const quote = expectOk(
    await account.portal('POST', '/quotes/create', {
      body: {
        customer_id: customer.body.id,
        items: [{ description: 'Deep clean', quantity: 1, unit_price: 280 }],
      },
    }),
  );
  expect((await account.portal('POST', `/quotes/${quote.body.number}/mark-sent`)).status).toBe(200);
  return { id: quote.body.id, number: quote.body.number, customer: customer.body.id };
}

function approval(accountId: string, quote: { id: string; customer: string }): ClientActionsTable {
  return {
    id: 'act_01kdz8y0000000000000000000',
    account_id: accountId,
    customer_id: quote.customer,
    link_id: 'lnk_01kdz8y0000000000000000000',
    kind: 'quote.approve',
    subject_id: quote.id,
    payload: JSON.stringify({ name: 'Maya Chen' }),
    ip: '203.0.113.7',
    created_at: '2026-11-24T08:00:00.000Z',
    status: 'pending',
    outcome: null,
    applied_at: null,
  };
}

async function rows(server: TestServer, quoteId: string) {
  const db = server.ctx.db;
  return {
    quote: await db
      .selectFrom('quotes')
      .select(['status', 'accepted_at', 'declined_at'])
      .where('id', '=', quoteId)
      .executeTakeFirstOrThrow(),
    events: await db
      .selectFrom('events')
      .select(['id', 'payload'])
      .where('type', 'in', ['quote.accepted', 'quote.declined'])
      .orderBy('id')
      .execute(),
    actions: await db.selectFrom('client_actions').select(['id', 'status', 'outcome']).execute(),
  };
}

async function settle(office: TestServer, van: TestServer, accountId: string) {
  for (let i = 0; i < 2; i++) {
    await van.ctx.sync!.syncNow(accountId);
    await office.ctx.sync!.syncNow(accountId);
  }
}

describe('client hub actions across devices', () => {
  it('applied on two devices while apart: one status change, one event, delivered once', async () => {
    const { office, van, account } = await pairedPair();
    const receiver = await startReceiver();
    try {
      await updateConfig(office.ctx, account.clientId, { allow_local_webhooks: true });
      const endpoint = await account.portal('POST', '/webhooks', {
        body: { url: receiver.url, events: ['quote.accepted'] },
      });
      expectStatus(endpoint, 201);
      const quote = await sentQuote(account);
      await settle(office, van, account.clientId);
      await office.ctx.sync!.stop();
      await van.ctx.sync!.stop();

      // Apart: each device holds the action (as pulled from the hub) and applies it.
      for (const server of [office, van]) {
        await server.ctx.db.insertInto('client_actions').values(approval(account.clientId, quote)).execute();
        expect(await applyPendingActions(server.ctx, account.clientId)).toBe(1);
      }
      const [onOffice, onVan] = [await rows(office, quote.id), await rows(van, quote.id)];
      expect(onOffice.events.map((e) => e.id)).toEqual(onVan.events.map((e) => e.id));
      expect(onOffice.events[0]!.payload).toBe(onVan.events[0]!.payload);

      await settle(office, van, account.clientId);
      const [office2, van2] = [await rows(office, quote.id), await rows(van, quote.id)];
      expect(office2).toEqual(van2);
      expect(office2.quote).toMatchObject({ status: 'accepted', accepted_at: '2026-11-24T08:00:00.000Z' });
      expect(office2.events).toHaveLength(1);
      expect(office2.actions).toEqual([expect.objectContaining({ status: 'applied' })]);
      await expect.poll(() => receiver.received.length, { timeout: 20_000 }).toBe(1);
      await settle(office, van, account.clientId);
      // An install queues an event's deliveries as it records the event, and both hold it by now:
      // one delivery, on the office, and once it is settled nothing more goes out.
      const queued = (server: TestServer) =>
        server.ctx.db
          .selectFrom('webhook_deliveries')
          .select(['event_id', 'status'])
          .where('endpoint_id', '=', endpoint.body.id)
          .execute();
      await expect
        .poll(
          async () => (await queued(office)).every((d) => d.status !== 'pending' && d.status !== 'sending'),
          {
            timeout: 20_000,
          },
        )
        .toBe(true);
      expect(await queued(office)).toEqual([{ event_id: office2.events[0]!.id, status: 'succeeded' }]);
      expect(await queued(van)).toEqual([]);
      expect(receiver.received).toHaveLength(1);
    } finally {
      await receiver.close();
    }
  }, 120_000);

  it('refused on one device (the owner declined there) changes nothing there but its outcome', async () => {
    const { office, van, account } = await pairedPair();
    const quote = await sentQuote(account);
    await settle(office, van, account.clientId);
    await office.ctx.sync!.stop();
    await van.ctx.sync!.stop();

    // The owner declines on the office while the van, apart, applies the customer's approval; the
    // office refuses it after (a later clock: its outcome must not outlive the status that lost).
    expect((await account.portal('POST', `/quotes/${quote.number}/decline`)).status).toBe(200);
    for (const server of [van, office]) {
      await server.ctx.db.insertInto('client_actions').values(approval(account.clientId, quote)).execute();
      await applyPendingActions(server.ctx, account.clientId);
    }
    const onOffice = await rows(office, quote.id);
    expect(onOffice.quote.status).toBe('declined');
    expect(onOffice.actions).toEqual([
      expect.objectContaining({ status: 'refused', outcome: expect.stringContaining('already declined') }),
    ]);
    expect(onOffice.events.filter((e) => JSON.parse(e.payload).type === 'quote.accepted')).toEqual([]);

    await settle(office, van, account.clientId);
    const [office2, van2] = [await rows(office, quote.id), await rows(van, quote.id)];
    expect(office2).toEqual(van2);
    // Statuses merge by rank: accepted beats declined, and applied beats refused.
    expect(office2.quote.status).toBe('accepted');
    expect(office2.actions).toEqual([
      expect.objectContaining({ status: 'applied', outcome: 'Approved by Maya Chen.' }),
    ]);
  }, 120_000);

  it('a decline with a reason and a request for changes leave one note each, wherever applied', async () => {
    const { office, van, account } = await pairedPair();
    const quote = await sentQuote(account);
    await settle(office, van, account.clientId);
    await office.ctx.sync!.stop();
    await van.ctx.sync!.stop();
    const changes: ClientActionsTable = {
      ...approval(account.clientId, quote),
      id: 'act_01kdz8y0000000000000000001',
      kind: 'quote.changes',
      payload: JSON.stringify({ message: 'Could you add the windows?' }),
    };
    const decline: ClientActionsTable = {
      ...approval(account.clientId, quote),
      id: 'act_01kdz8y0000000000000000002',
      kind: 'quote.decline',
      payload: JSON.stringify({ reason: 'Too far out' }),
    };
    for (const server of [office, van]) {
      await server.ctx.db.insertInto('client_actions').values([changes, decline]).execute();
      expect(await applyPendingActions(server.ctx, account.clientId)).toBe(2);
    }
    await settle(office, van, account.clientId);
    for (const server of [office, van]) {
      const notes = await server.ctx.db.selectFrom('customer_notes').select('text').orderBy('id').execute();
      expect(notes.map((n) => n.text).sort()).toEqual([
        `From the client hub: Asked for changes to quote ${quote.number}: Could you add the windows?`,
        `From the client hub: Declined quote ${quote.number}: Too far out`,
      ]);
      expect((await rows(server, quote.id)).quote.status).toBe('declined');
      expect((await rows(server, quote.id)).events).toHaveLength(1);
    }
  }, 120_000);

  it("the owner's e-mail about it is one message, though both devices' clocks are behind the hub's", async () => {
    // The hosted hub stamped the action at 08:00; the office says 06:00 and the van 07:00.
    const { office, van, account } = await pairedPair({
      office: manualClock('2026-11-24T06:00:00Z'),
      van: manualClock('2026-11-24T07:00:00Z'),
    });
    await updateConfig(office.ctx, account.clientId, {
      owner_alerts: true,
      business_email: 'owner@sparkle.test',
    });
    const quote = await sentQuote(account);
    await settle(office, van, account.clientId);
    await office.ctx.sync!.stop();
    await van.ctx.sync!.stop();
    const action = {
      ...approval(account.clientId, quote),
      id: derivedId('act', Date.parse('2026-11-24T08:00:00Z'), 'approval'),
    };
    for (const server of [office, van]) {
      await server.ctx.db.insertInto('client_actions').values(action).execute();
      expect(await applyPendingActions(server.ctx, account.clientId)).toBe(1);
    }
    await settle(office, van, account.clientId);
    for (const server of [office, van]) {
      const alerts = await server.ctx.db
        .selectFrom('mail_messages')
        .select(['id', 'subject'])
        .where('purpose', '=', 'owner_alert')
        .execute();
      expect(alerts).toEqual([
        { id: expect.any(String), subject: `Maya Chen approved quote ${quote.number}` },
      ]);
      expect(idTime(alerts[0]!.id)).toBe(idTime(action.id));
    }
  }, 120_000);

  it('an action of a customer deleted on this install is refused, and the next one still applies', async () => {
    const office = await started();
    const account = await office.createAccount({ business: 'Sparkle Cleaning' });
    const quote = await sentQuote(account);
    const gone = expectOk(
      await account.portal('POST', '/customers', {
        body: { name: 'Bo', email: 'bo@example.com' },
      }),
    );
    await deleteCustomer(office.ctx, account.clientId, gone.body.id);
    const renewal: ClientActionsTable = {
      ...approval(account.clientId, quote),
      id: 'act_01kdz8y0000000000000000003',
      customer_id: gone.body.id,
      kind: 'link.renew',
      subject_id: 'lnk_01kdz8y0000000000000000003',
      payload: JSON.stringify({ contact: 'bo@example.com' }),
    };
    const db = office.ctx.db;
    await db
      .insertInto('client_actions')
      .values([renewal, approval(account.clientId, quote)])
      .execute();
    expect(await applyPendingActions(office.ctx, account.clientId)).toBe(2);
    const settled = await db
      .selectFrom('client_actions')
      .select(['kind', 'status', 'outcome'])
      .orderBy('id')
      .execute();
    expect(settled).toEqual([
      { kind: 'quote.approve', status: 'applied', outcome: 'Approved by Maya Chen.' },
      { kind: 'link.renew', status: 'refused', outcome: 'This customer is no longer on record.' },
    ]);
  }, 120_000);
});
