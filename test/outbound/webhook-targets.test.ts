import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateConfig } from '../../server/domain/accounts';
import { isPublicAddress } from '../../server/outbound/webhook-target';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { answer, type Receiver, startReceiver } from './receiver';

let server: TestServer;
let shop: TestAccount;
let receiver: Receiver;

beforeAll(async () => {
  server = await startTestServer({ outbound: { webhooks: { jitter: () => 1 } } });
  shop = await server.createAccount();
  receiver = await startReceiver(answer(200, 'internal secret page'));
});
afterAll(async () => {
  await server.stop();
  await receiver.close();
});

const localTargets = [
  'http://169.254.169.254/latest/meta-data/',
  'http://127.0.0.1:9/x',
  'http://10.1.2.3/hook',
  'http://192.168.1.10/hook',
  'http://[::1]:8080/hook',
  'http://[::ffff:127.0.0.1]/hook',
  'http://localhost:8080/hook',
  'http://0.0.0.0:8080/hook',
];

describe('webhook targets (SSRF)', () => {
  it('classifies addresses', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111', '172.32.0.1'])
      expect(isPublicAddress(address)).toBe(true);
    for (const address of [
      '127.0.0.2',
      '169.254.169.254',
      '172.16.0.1',
      '100.64.0.1',
      'fe80::1',
      'fd00::1',
      '::',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses loopback, private and link-local targets on both interfaces without the owner’s permission', async () => {
    for (const url of localTargets) {
      const v1 = await shop.v1('POST', '/webhooks', { body: { url } });
      expect(v1.status, url).toBe(400);
      expect(v1.body.error.param).toBe('url');
      const portal = await shop.portal('POST', '/webhooks', { body: { url } });
      expect(portal.status, url).toBe(400);
    }
    const publicTarget = await shop.v1('POST', '/webhooks', { body: { url: 'https://hooks.example.com/x' } });
    expect(publicTarget.status).toBe(201);
    const moved = await shop.v1('PATCH', `/webhooks/${publicTarget.body.id}`, {
      body: { url: 'http://169.254.169.254/' },
    });
    expect(moved.status).toBe(400);
  });

  it('lets only the signed-in owner allow local targets', async () => {
    const byKey = await shop.portal('PUT', '/config', { body: { allow_local_webhooks: true } });
    expect(byKey.status).toBe(403);
    expect(byKey.body.error.param).toBe('allow_local_webhooks');
    const cookie = await shop.signIn();
    const byOwner = await server.request('PUT', `/api/portal/${shop.clientId}/config`, {
      body: { allow_local_webhooks: true },
      headers: { cookie },
    });
    expect(byOwner.status).toBe(200);
    expect(byOwner.body.allow_local_webhooks).toBe(true);
    expect((await shop.v1('POST', '/webhooks', { body: { url: receiver.url } })).status).toBe(201);
  });

  it("always refuses this server's own port", async () => {
    for (const url of [
      `http://127.0.0.1:${server.port}/api/v1/clients`,
      `http://localhost:${server.port}/api/v1/clients`,
      `http://[::1]:${server.port}/`,
    ]) {
      const response = await shop.portal('POST', '/webhooks', { body: { url } });
      expect(response.status, url).toBe(400);
      expect(response.body.error.message).toContain('this Shopdesk server');
    }
  });

  it('shows what the receiver answered to the portal, never to a v1 key', async () => {
    const account = await server.createAccount({ business: 'Echo' });
    await updateConfig(server.ctx, account.clientId, { allow_local_webhooks: true });
    const portalHook = await account.portal('POST', '/webhooks', { body: { url: receiver.url } });
    const v1Hook = await account.v1('POST', '/webhooks', { body: { url: receiver.url } });
    await account.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    await server.outbound.webhooks.runDue();
    const portalHistory = await account.portal('GET', `/webhooks/${portalHook.body.id}/deliveries`);
    expect(portalHistory.body.data[0].attempts[0]).toMatchObject({
      response_code: 200,
      response_body: 'internal secret page',
    });
    const v1History = await account.v1('GET', `/webhooks/${v1Hook.body.id}/deliveries`);
    expect(v1History.body.data[0].attempts[0]).toMatchObject({ response_code: 200, response_body: null });
    const one = await account.v1(
      'GET',
      `/webhooks/${v1Hook.body.id}/deliveries/${v1History.body.data[0].id}`,
    );
    expect(one.text).not.toContain('internal secret page');
  });

  it('checks the address again when it sends, by IP and by name', async () => {
    const account = await server.createAccount({ business: 'Revoked' });
    await updateConfig(server.ctx, account.clientId, { allow_local_webhooks: true });
    const byIp = await account.portal('POST', '/webhooks', { body: { url: receiver.url } });
    const byName = await account.portal('POST', '/webhooks', {
      body: { url: receiver.url.replace('127.0.0.1', 'localhost') },
    });
    await updateConfig(server.ctx, account.clientId, { allow_local_webhooks: false });
    const before = receiver.received.length;
    await account.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    await server.outbound.webhooks.runDue();
    expect(receiver.received.length).toBe(before);
    for (const hook of [byIp, byName]) {
      const history = await account.portal('GET', `/webhooks/${hook.body.id}/deliveries`);
      expect(history.body.data[0].attempts[0]).toMatchObject({ response_code: null });
      expect(history.body.data[0].attempts[0].error).toContain('Not sent');
    }
  });
});
