import { afterEach, expect, it } from 'vitest';
import { createKey } from '../../server/domain/api-keys';
import { expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function started(): Promise<TestServer> {
  const server = await startTestServer();
  servers.push(server);
  return server;
}

const invoice = (i: number) => ({
  customer_email: `c${i % 7}@example.com`,
  customer_name: `Customer ${i % 7}`,
  items: [{ description: 'Visit', quantity: 1, unit_price: 40 }],
});

/** `count` invoices through the v1 API, `writers` requests at a time; their numbers. */
async function issue(server: TestServer, clientId: string, count: number, writers = 4) {
  const { key } = await createKey(server.ctx, clientId, { kind: 'v1' });
  const numbers: string[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: writers }, async () => {
      while (next < count) {
        const i = next++;
        const made = await server.request('POST', '/api/v1/invoices', {
          key,
          body: invoice(i),
        });
        expectStatus(made, 201);
        numbers.push(made.body.number);
      }
    }),
  );
  return numbers;
}

it('an online device issuing several blocks of invoices quickly never uses its own letter series', async () => {
  const hub = await started();
  const account = await hub.createAccount({ business: 'Busy counter' });
  const pairing = await account.portal('POST', '/sync/pair', { body: { name: 'Van' } });
  expectStatus(pairing, 200);
  const device = await started();
  await device.ctx.sync!.join({ url: hub.url }, pairing.body.pairing_code, 'Van');

  // 100 numbers a block, topped up below 25: three blocks' worth, faster than any sync round.
  const onDevice = await issue(device, account.clientId, 320);
  const onHub = await issue(hub, account.clientId, 150, 2);
  for (const number of [...onDevice, ...onHub]) expect(number).toMatch(/^INV-\d{4,}$/);
  expect(new Set([...onDevice, ...onHub]).size).toBe(onDevice.length + onHub.length);

  // Cut off from its hub, the device uses up what it holds, then its own series: the same check can fail.
  await hub.stop();
  servers.splice(servers.indexOf(hub), 1);
  const offline = await issue(device, account.clientId, 130, 2);
  expect(offline.filter((n) => /^INV-[A-Z]+-\d{4}$/.test(n)).length).toBeGreaterThan(0);
}, 300_000);
