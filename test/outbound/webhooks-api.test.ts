import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import {
  type ListPage,
  type StoredEvent,
  startTestServer,
  type TestAccount,
  type TestServer,
} from '../helpers/server';
import { answer, eventually, type Receiver, signatureMatches, startReceiver } from './receiver';

let server: TestServer;
let shop: TestAccount;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer({ localWebhooks: true, outbound: { webhooks: { jitter: () => 1 } } });
  shop = await server.createAccount();
  receiver = await startReceiver(answer(200, 'thanks'));
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

describe('webhook endpoints', () => {
  it('creates an endpoint, shows its secret once, and lists and gets it without the secret', async () => {
    const created = await shop.portal('POST', '/webhooks', {
      body: { url: 'https://example.com/hooks', description: 'Zapier' },
    });
    expectStatus(created, 201);
    expect(created.body).toMatchObject({
      object: 'webhook_endpoint',
      interface: 'portal',
      events: ['*'],
      enabled: true,
      description: 'Zapier',
    });
    expect(created.body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);

    const got = await shop.portal('GET', `/webhooks/${created.body.id}`);
    expectStatus(got, 200);
    expect(got.body).not.toHaveProperty('secret');
    expect(got.text).not.toContain(created.body.secret);
    const list = expectOk(await shop.portal('GET', '/webhooks'));
    expect(list.body.data.map((e: { id: string }) => e.id)).toContain(created.body.id);
    expect(list.text).not.toContain(created.body.secret);
  });

  it('refuses a URL that is not http(s) and events the interface does not have, naming the param', async () => {
    const ftp = await shop.portal('POST', '/webhooks', { body: { url: 'ftp://example.com/x' } });
    expectStatus(ftp, 400);
    expect(ftp.body.error.param).toBe('url');

    const unknown = await shop.portal('POST', '/webhooks', {
      body: { url: 'https://example.com/x', events: ['invoice.exploded'] },
    });
    expectStatus(unknown, 400);
    expect(unknown.body.error).toMatchObject({ code: 'validation_failed', param: 'events' });

    // quote.declined is a portal event only.
    const v1Only = await shop.v1('POST', '/webhooks', {
      body: { url: 'https://example.com/x', events: ['quote.declined'] },
    });
    expectStatus(v1Only, 400);
    expect(v1Only.body.error.param).toBe('events');
    const portal = await shop.portal('POST', '/webhooks', {
      body: { url: 'https://example.com/x', events: ['quote.declined', 'invoice.payment_recorded'] },
    });
    expectStatus(portal, 201);
  });

  it('keeps portal and v1 endpoints apart, updates with PATCH and deletes', async () => {
    const v1 = await shop.v1('POST', '/webhooks', { body: { url: 'http://127.0.0.1:9/x' } });
    expectStatus(v1, 201);
    expect(v1.body.interface).toBe('v1');
    expect((await shop.portal('GET', `/webhooks/${v1.body.id}`)).status).toBe(404);

    const patched = await shop.v1('PATCH', `/webhooks/${v1.body.id}`, {
      body: { events: ['invoice.paid', 'job.completed'], enabled: false, description: 'ERP' },
    });
    expectStatus(patched, 200);
    expect(patched.body).toMatchObject({
      events: ['invoice.paid', 'job.completed'],
      enabled: false,
      disabled_reason: 'manual',
      description: 'ERP',
    });
    const unknownField = await shop.v1('PATCH', `/webhooks/${v1.body.id}`, { body: { secret: 'x' } });
    expectStatus(unknownField, 400);

    const deleted = expectOk(await shop.v1('DELETE', `/webhooks/${v1.body.id}`));
    expect(deleted.body).toEqual({ id: v1.body.id, object: 'webhook_endpoint', deleted: true });
    expect((await shop.v1('GET', `/webhooks/${v1.body.id}`)).status).toBe(404);
  });

  it('refuses webhook routes to a key of the wrong interface or account', async () => {
    const other = await server.createAccount({ business: 'Other' });
    const own = expectOk(
      await shop.portal('POST', '/webhooks', { body: { url: 'https://example.com/own' } }),
    );
    const foreign = await other.portal('GET', `/webhooks/${own.body.id}`);
    expectStatus(foreign, 404);
    const wrongKey = await shop.portal('GET', '/webhooks', { key: shop.v1Key });
    expectStatus(wrongKey, 403);
  });
});

describe('delivery', () => {
  it('delivers a signed event with every contract header, verified independently', async () => {
    const account = await server.createAccount({ business: 'Signed' });
    const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    const before = receiver.received.length;
    const sentFrom = Math.floor(server.ctx.clock.now().getTime() / 1000);
    const customer = expectOk(
      await account.portal('POST', '/customers', {
        body: { name: 'Ada Lovelace', email: 'ada@example.com' },
      }),
    );
    await server.outbound.webhooks.runDue();
    const got = receiver.received.slice(before);
    expect(got).toHaveLength(1);
    const delivery = got[0]!;
    expect(delivery.headers['content-type']).toBe('application/json');
    expect(delivery.headers['x-service-event-type']).toBe('customer.created');
    expect(delivery.headers['x-service-attempt']).toBe('1');
    expect(delivery.headers['x-service-delivery-id']).toMatch(/^dlv_/);
    // The server's clock is the real one here: the signing second lies between the write and now.
    const stamped = Number(delivery.headers['x-service-timestamp']);
    expect(stamped).toBeGreaterThanOrEqual(sentFrom);
    expect(stamped).toBeLessThanOrEqual(Math.floor(server.ctx.clock.now().getTime() / 1000));
    expect(signatureMatches(delivery, endpoint.body.secret)).toBe(true);
    expect(signatureMatches(delivery, 'whsec_not_the_secret')).toBe(false);
    expect(signatureMatches({ ...delivery, body: `${delivery.body} ` }, endpoint.body.secret)).toBe(false);

    const event = JSON.parse(delivery.body);
    expect(event).toMatchObject({
      id: delivery.headers['x-service-event-id'],
      type: 'customer.created',
      account_id: account.clientId,
      data: { object: { id: customer.body.id, email: 'ada@example.com' } },
    });
    const listed = expectOk(await account.v1('GET', `/events/${event.id}`));
    expect(listed.body).toEqual(event);

    const history = expectOk(await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries`));
    expect(history.body.data).toHaveLength(1);
    expect(history.body.data[0]).toMatchObject({
      id: delivery.headers['x-service-delivery-id'],
      event_id: event.id,
      status: 'succeeded',
      attempt_count: 1,
      next_attempt_at: null,
      attempts: [
        { attempt: 1, status: 'succeeded', response_code: 200, response_body: 'thanks', error: null },
      ],
    });
  });

  it('sends only the events an endpoint subscribes to, and nothing to disabled endpoints', async () => {
    const account = await server.createAccount({ business: 'Picky' });
    const picky = expectOk(
      await account.v1('POST', '/webhooks', {
        body: { url: receiver.url, events: ['invoice.paid'] },
      }),
    );
    const off = expectOk(
      await account.v1('POST', '/webhooks', { body: { url: receiver.url, enabled: false } }),
    );
    await account.v1('POST', '/clients', { body: { name: 'Bo', email: 'bo@example.com' } });
    await server.outbound.webhooks.runDue();
    for (const id of [picky.body.id, off.body.id]) {
      const history = expectOk(await account.v1('GET', `/webhooks/${id}/deliveries`));
      expect(history.body.data).toEqual([]);
    }
  });

  it('sends webhook.test to the tested endpoint only and redelivers by hand as a new delivery', async () => {
    const account = await server.createAccount({ business: 'Tester' });
    const tested = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    const bystander = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    const queued = await account.portal('POST', `/webhooks/${tested.body.id}/test`);
    expectStatus(queued, 202);
    expect(queued.body).toMatchObject({ event_type: 'webhook.test', status: 'pending', attempts: [] });
    await server.outbound.webhooks.runDue();
    const sent = receiver.received.find((r) => r.headers['x-service-delivery-id'] === queued.body.id)!;
    expect(JSON.parse(sent.body).data.object.id).toBe(tested.body.id);
    expect(okBody(await account.portal('GET', `/webhooks/${bystander.body.id}/deliveries`)).data).toEqual([]);

    const again = await account.portal(
      'POST',
      `/webhooks/${tested.body.id}/deliveries/${queued.body.id}/redeliver`,
    );
    expectStatus(again, 202);
    expect(again.body).toMatchObject({
      event_id: queued.body.event_id,
      redelivery_of: queued.body.id,
      max_attempts: 1,
    });
    await server.outbound.webhooks.runDue();
    const resent = receiver.received.filter((r) => r.headers['x-service-event-id'] === queued.body.event_id);
    expect(resent.map((r) => r.headers['x-service-delivery-id'])).toEqual([queued.body.id, again.body.id]);

    const missing = await account.portal('POST', `/webhooks/${tested.body.id}/deliveries/dlv_nope/redeliver`);
    expectStatus(missing, 404);
    await account.portal('PATCH', `/webhooks/${tested.body.id}`, { body: { enabled: false } });
    const disabled = await account.portal('POST', `/webhooks/${tested.body.id}/test`);
    expectStatus(disabled, 409);
    expect(disabled.body.error.code).toBe('invalid_state');
  });

  it('keeps the first 2 KB of an answer', async () => {
    const account = await server.createAccount({ business: 'Verbose' });
    const big = await startReceiver(answer(200, 'x'.repeat(10_000)));
    try {
      const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: big.url } }));
      await account.portal('POST', `/webhooks/${endpoint.body.id}/test`);
      await server.outbound.webhooks.runDue();
      const history = expectOk(await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries`));
      expect(history.body.data[0]!.attempts[0]!.response_body).toHaveLength(2048);
    } finally {
      await big.close();
    }
  });

  it('never sends an event whose change rolled back', async () => {
    const { recordEvent } = await import('../../server/domain/events');
    const account = await server.createAccount({ business: 'Rollback' });
    const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    const failed = server.ctx.db.transaction().execute(async (tx) => {
      await recordEvent(tx, server.ctx.clock, account.clientId, 'customer.created', { id: 'cus_ghost' });
      throw new Error('the change failed after its event was recorded');
    });
    await expect(failed).rejects.toThrow('the change failed');
    await server.outbound.webhooks.runDue();
    expect(okBody(await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries`)).data).toEqual([]);
    expect(receiver.received.some((r) => r.body.includes('cus_ghost'))).toBe(false);
    const events = expectOk(await account.v1('GET', '/events'));
    expect(events.body.data).toEqual([]);
  });

  it('waits while offline without spending attempts, and wakes when back online', async () => {
    const account = await server.createAccount({ business: 'Offline' });
    const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    server.setOnline(false);
    try {
      await account.portal('POST', '/customers', { body: { name: 'Cy', email: 'cy@example.com' } });
      await server.outbound.webhooks.runDue();
      const waiting = expectOk(await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries`));
      expect(waiting.body.data[0]).toMatchObject({ status: 'pending', attempt_count: 0, attempts: [] });
    } finally {
      server.setOnline(true);
    }
    // No runDue here: coming online must wake the worker by itself.
    await eventually(async () => {
      const after = expectOk(await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries`));
      return after.body.data[0]!.status === 'succeeded';
    }, 'the delivery after going online');
  });

  it('bounds deliveries in flight', async () => {
    const account = await server.createAccount({ business: 'Burst' });
    const releases: Array<() => void> = [];
    const slow = await startReceiver((_request, response) => {
      releases.push(() => response.writeHead(200).end());
    });
    try {
      const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: slow.url } }));
      for (let i = 0; i < 20; i++) await account.portal('POST', `/webhooks/${endpoint.body.id}/test`);
      const done = server.outbound.webhooks.runDue();
      let answered = 0;
      while (answered < 20) {
        await eventually(() => releases.length > 0, 'a held request');
        expect(slow.open).toBeLessThanOrEqual(8);
        releases.shift()!();
        answered++;
      }
      await done;
      expect(slow.received).toHaveLength(20);
      expect(slow.maxOpen).toBe(8);
    } finally {
      await slow.close();
    }
  });
});

describe('events API', () => {
  it('lists v1 events newest first with type and created_after filters', async () => {
    const account = await server.createAccount({ business: 'Catch-up' });
    await account.v1('POST', '/clients', { body: { name: 'A', email: 'a@example.com' } });
    await account.v1('POST', '/clients', { body: { name: 'B', email: 'b@example.com' } });
    const endpoint = expectOk(await account.v1('POST', '/webhooks', { body: { url: receiver.url } }));
    await account.v1('POST', `/webhooks/${endpoint.body.id}/test`);

    const all = await account.v1('GET', '/events?limit=1');
    expectStatus(all, 200);
    expect(all.body.data[0]).toMatchObject({ type: 'customer.created', data: { object: { name: 'B' } } });
    expect(all.body.pagination.has_more).toBe(true);
    const next = expectOk(
      await account.v1<ListPage<StoredEvent<{ name: string }>>>(
        'GET',
        `/events?limit=1&cursor=${all.body.pagination.next_cursor}`,
      ),
    );
    expect(next.body.data[0]!.data.object.name).toBe('A');
    expect(next.body.pagination).toEqual({ has_more: false, next_cursor: null });

    const typed = expectOk(await account.v1('GET', '/events?type=invoice.paid'));
    expect(typed.body.data).toEqual([]);
    const later = expectOk(await account.v1('GET', '/events?created_after=2099-01-01T00:00:00Z'));
    expect(later.body.data).toEqual([]);
    const badType = await account.v1('GET', '/events?type=webhook.test');
    expectStatus(badType, 400);
    expect(badType.body.error.param).toBe('type');
    expect((await account.v1('GET', '/events/evt_unknown')).status).toBe(404);
  });
});
