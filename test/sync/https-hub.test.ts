import { afterEach, describe, expect, it } from 'vitest';
import { createAccount } from '../../server/domain/accounts';
import { createCustomer } from '../../server/domain/customers';
import { startTestServer, type TestServer } from '../helpers/server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

describe('a hub with its own certificate', () => {
  it('gives its fingerprint at pairing, and devices sync with it pinned and refuse any other', async () => {
    const hub = await startTestServer({ tls: 'generate' });
    servers.push(hub);
    expect(hub.url).toMatch(/^https:/);
    const account = await createAccount(hub.ctx, {
      businessName: 'Sparkle',
      plan: 'platform',
      apiPlan: 'lite',
    });
    await createCustomer(hub.ctx, account.id, { name: 'Ada', email: 'ada@example.com' });
    const pairing = await hub.ctx.sync!.pair(account.id, { name: 'Laptop' });
    expect(pairing.fingerprint).toBe(hub.tlsFingerprint);
    expect(new URL(pairing.pairing_link).searchParams.get('fingerprint')).toBe(hub.tlsFingerprint);

    const impostor = await startTestServer();
    servers.push(impostor);
    const wrongPin = `${'AA:'.repeat(31)}AA`;
    const refused = await impostor.ctx
      .sync!.join({ url: hub.url, fingerprint: wrongPin }, pairing.pairing_code)
      .catch((error: Error) => error);
    expect(String(refused)).toMatch(/other than the one paired/);

    const device = await startTestServer();
    servers.push(device);
    await device.ctx.sync!.join({ url: hub.url, fingerprint: pairing.fingerprint }, pairing.pairing_code);
    const customers = await device.ctx.db.selectFrom('customers').select('email').execute();
    expect(customers.map((c) => c.email)).toEqual(['ada@example.com']);
  });
});
