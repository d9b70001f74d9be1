import { afterAll, beforeAll, expect, it } from 'vitest';
import { expectOk } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';
import { answer, eventually, type Receiver, startReceiver } from './receiver';

/**
 * A write's response wakes the outbox workers (server/http/app.ts), once for all the writes
 * answered in one turn of the event loop. The delivery thread's own poll is set far beyond the
 * wait below, so only that wake-up can send these events.
 */
let server: TestServer;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer({
    localWebhooks: true,
    outbound: { webhooks: { jitter: () => 1, pollMs: 10 * 60_000 } },
  });
  receiver = await startReceiver(answer(200, 'thanks'));
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

it('sends the events of writes answered together without waiting for a poll', async () => {
  const shop = await server.createAccount();
  expectOk(
    await shop.portal('POST', '/webhooks', { body: { url: receiver.url, events: ['customer.created'] } }),
  );
  let wakes = 0;
  const counted = () => {
    wakes++;
  };
  server.ctx.signals.on('outbox', counted);
  try {
    const names = ['Ada', 'Bea', 'Cy'];
    const created = await Promise.all(
      names.map((name) =>
        shop.portal<{ id: string }>('POST', '/customers', {
          body: { name, email: `${name.toLowerCase()}@example.com` },
        }),
      ),
    );
    for (const response of created) expectOk(response);
    await eventually(
      () => created.every((c) => receiver.received.some((r) => r.body.includes(c.body.id))),
      'the three customers’ events, without runDue',
      30_000,
    );
    expect(wakes).toBeGreaterThanOrEqual(1);
    expect(wakes).toBeLessThanOrEqual(names.length);
  } finally {
    server.ctx.signals.off('outbox', counted);
  }
});
