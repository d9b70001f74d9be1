import { afterAll, describe, expect, it } from 'vitest';
import type { WebhookDelivery } from '../../shared/schemas/webhook';
import { expectStatus, okBody } from '../helpers/api-responses';
import { type ListPage, startTestServer, type TestServer } from '../helpers/server';
import { type SkewedMachine, startSkewedMachine } from '../helpers/skewed-machine';
import { eventually, type Receiver, startReceiver } from '../outbound/receiver';

/**
 * Invariant 9 (docs/sync.md, "Webhooks and mail once"), the fault campaign's case on the built-in
 * hub: a van whose clock is 3 hours slow (a real server process) raises events after an endpoint
 * exists on the hub, and an endpoint made on the van meets events the hub raised before it. Which
 * events an endpoint gets follows the order its delivering install learned of them, not the times
 * in the ids.
 */
const HOURS = 3_600_000;
const stops: Array<() => Promise<unknown>> = [];
afterAll(async () => {
  for (const stop of stops.splice(0).reverse()) await stop();
});

const eventIds = (received: Receiver['received']) =>
  received.map((r) => String(r.headers['x-service-event-id'])).sort();

async function customerEvents(server: TestServer, accountId: string): Promise<string[]> {
  const rows = await server.ctx.db
    .selectFrom('events')
    .select('id')
    .where('account_id', '=', accountId)
    .where('type', '=', 'customer.created')
    .execute();
  return rows.map((r) => r.id).sort();
}

/**
 * The events an endpoint's deliveries carry, once none is waiting or being sent: a send is made
 * only for a delivery claimed from those, so from then on the receiver gets nothing more of them.
 */
async function settledEventIds(list: () => Promise<ListPage<WebhookDelivery>>): Promise<string[]> {
  let deliveries: WebhookDelivery[] = [];
  await eventually(
    async () => {
      deliveries = (await list()).data;
      return deliveries.every((d) => d.status !== 'pending' && d.status !== 'sending');
    },
    'every delivery settled',
    30_000,
  );
  return deliveries.map((d) => d.event_id).sort();
}

describe('events and a computer 3 hours slow, on the built-in hub', () => {
  it('delivers what the slow van raised after the endpoint, and nothing the deliverer held before', async () => {
    const office = await startTestServer({ localWebhooks: true });
    stops.push(() => office.stop());
    const account = await office.createAccount({ business: 'Clockwork Cleaning' });
    const pairing = await account.portal('POST', '/sync/pair', { body: { name: 'Slow van' } });
    expectStatus(pairing, 200);
    const van: SkewedMachine = await startSkewedMachine(office.url, pairing.body.pairing_code, -3 * HOURS);
    stops.push(() => van.stop());

    const customer = (name: string) => ({
      name,
      email: `${name.toLowerCase().replace(' ', '-')}@example.com`,
    });
    const onVan = (name: string) =>
      van.request('POST', `/api/portal/${account.clientId}/customers`, customer(name));
    const onOffice = (name: string) => account.portal('POST', '/customers', { body: customer(name) });
    const syncBoth = async () => {
      expect((await van.request('POST', `/api/portal/${account.clientId}/sync/now`)).status).toBe(200);
      await office.ctx.sync!.syncNow(account.clientId);
      expect((await van.request('POST', `/api/portal/${account.clientId}/sync/now`)).status).toBe(200);
    };

    expect((await onVan('Van early')).status).toBe(201);
    expect((await onOffice('Office early')).status).toBe(201);
    await syncBoth();
    const heldBefore = await customerEvents(office, account.clientId);
    expect(heldBefore).toHaveLength(2);

    const officeReceiver = await startReceiver();
    stops.push(() => officeReceiver.close());
    const officeEndpoint = await account.portal('POST', '/webhooks', {
      body: { url: officeReceiver.url, events: ['customer.created'] },
    });
    expectStatus(officeEndpoint, 201);

    for (const name of ['Van one', 'Van two', 'Van three']) expect((await onVan(name)).status).toBe(201);
    await syncBoth();
    const raisedAfter = (await customerEvents(office, account.clientId)).filter(
      (id) => !heldBefore.includes(id),
    );
    expect(raisedAfter).toHaveLength(3);
    // The slow clock stamped them before the endpoint: by id order they would never go out.
    for (const id of raisedAfter) expect(id.slice(4) < officeEndpoint.body.id.slice(4)).toBe(true);
    await eventually(
      () => officeReceiver.received.length >= 3,
      'the slow van’s events at the office',
      30_000,
    );

    // An endpoint made on the van: all it holds came before it, though the office's events carry
    // later times than the endpoint's id.
    const vanReceiver = await startReceiver();
    stops.push(() => vanReceiver.close());
    const vanEndpoint = await van.request('POST', `/api/portal/${account.clientId}/webhooks`, {
      url: vanReceiver.url,
      events: ['customer.created'],
    });
    expectStatus(vanEndpoint, 201);
    const held = await customerEvents(office, account.clientId);
    expect(held.some((id) => id.slice(4) > vanEndpoint.body.id.slice(4))).toBe(true);

    expect((await onOffice('Office late')).status).toBe(201);
    await syncBoth();
    const late = (await customerEvents(office, account.clientId)).filter((id) => !held.includes(id));
    expect(late).toHaveLength(1);
    await eventually(() => vanReceiver.received.length >= 1, 'the office’s late event at the van', 30_000);
    await eventually(() => officeReceiver.received.length >= 4, 'the office’s own late event', 30_000);

    // An install queues an event's deliveries as it records the event, and every event is on both
    // by now: once each queued delivery is settled, nothing more goes out from either install.
    const officeQueued = await settledEventIds(async () =>
      okBody(
        await account.portal<ListPage<WebhookDelivery>>(
          'GET',
          `/webhooks/${officeEndpoint.body.id}/deliveries?limit=100`,
        ),
      ),
    );
    const vanQueued = await settledEventIds(async () => {
      const listed = await van.request(
        'GET',
        `/api/portal/${account.clientId}/webhooks/${vanEndpoint.body.id}/deliveries?limit=100`,
      );
      expect(listed.status).toBe(200);
      return listed.body as ListPage<WebhookDelivery>;
    });
    expect(officeQueued).toEqual([...raisedAfter, ...late].sort());
    expect(vanQueued).toEqual(late);
    expect(eventIds(officeReceiver.received)).toEqual(officeQueued);
    expect(eventIds(vanReceiver.received)).toEqual(vanQueued);
  }, 180_000);
});
