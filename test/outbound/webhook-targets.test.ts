import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { updateConfig } from '../../server/domain/accounts';
import { type HostLookup, isPublicAddress } from '../../server/lib/webhook-target';
import { expectError, expectOk, expectStatus } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { answer, type Receiver, startReceiver } from './receiver';

let server: TestServer;
let shop: TestAccount;
let receiver: Receiver;

/**
 * Public DNS as it answers for names that point at this machine (localtest.me is 127.0.0.1 for
 * everyone); this machine cannot reach public DNS, so other names do not resolve, as offline.
 */
const publicDns: HostLookup = (hostname, _options, callback) => {
  if (hostname === 'slow.example') return;
  if (/(^|\.)localtest\.me$/.test(hostname)) return callback(null, [{ address: '127.0.0.1', family: 4 }]);
  callback(Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' }), []);
};

beforeAll(async () => {
  server = await startTestServer({ hostLookup: publicDns, outbound: { webhooks: { jitter: () => 1 } } });
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
  'http://localhost./hook',
  'http://LocalHost.:8080/hook',
  'http://app.localhost./hook',
  'http://localtest.me/hook',
  'http://api.localtest.me:8080/hook',
  'http://[::127.0.0.1]/hook',
  'http://[64:ff9b::7f00:1]/hook',
  'http://[64:ff9b::a01:203]/hook',
  'http://[2002:7f00:1::]/hook',
  'http://[2001::1]/hook',
];

describe('webhook targets (SSRF)', () => {
  it('classifies addresses', () => {
    for (const address of ['8.8.8.8', '2606:4700::1111', '172.32.0.1', '64:ff9b::808:808', '2002:808:808::1'])
      expect(isPublicAddress(address), address).toBe(true);
    for (const address of [
      '127.0.0.2',
      '169.254.169.254',
      '172.16.0.1',
      '100.64.0.1',
      'fe80::1',
      'fd00::1',
      '::',
      '::1',
      '::127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::127.0.0.1',
      '64:ff9b::c0a8:101',
      '64:ff9b:1::808:808',
      '2002:a9fe:a9fe::',
      '2001:0:4136:e378:8000:63bf:3fff:fdd2',
      '2001:db8::1',
    ]) {
      expect(isPublicAddress(address), address).toBe(false);
    }
  });

  it('refuses loopback, private and link-local targets on both interfaces without the owner’s permission', async () => {
    for (const url of localTargets) {
      const v1 = expectError(await shop.v1('POST', '/webhooks', { body: { url } }));
      expect(v1.status, url).toBe(400);
      expect(v1.body.error.param).toBe('url');
      const portal = await shop.portal('POST', '/webhooks', { body: { url } });
      expect(portal.status, url).toBe(400);
    }
    const publicTarget = await shop.v1('POST', '/webhooks', { body: { url: 'https://hooks.example.com/x' } });
    expectStatus(publicTarget, 201);
    const portalTarget = await shop.portal('POST', '/webhooks', {
      body: { url: 'https://hooks.example.com/y' },
    });
    expectStatus(portalTarget, 201);
    for (const url of ['http://169.254.169.254/', 'http://localtest.me/', 'http://[64:ff9b::7f00:1]/']) {
      const moved = await shop.v1('PATCH', `/webhooks/${publicTarget.body.id}`, { body: { url } });
      expect(moved.status, url).toBe(400);
      const portalMoved = await shop.portal('PATCH', `/webhooks/${portalTarget.body.id}`, { body: { url } });
      expect(portalMoved.status, url).toBe(400);
    }
  });

  it('names the address a name resolved to', async () => {
    const refused = expectError(
      await shop.portal('POST', '/webhooks', { body: { url: 'https://localtest.me/hook' } }),
    );
    expect(refused.body.error.message).toContain('localtest.me resolves to 127.0.0.1');
  });

  it('accepts a name it cannot resolve yet, or not in time, and leaves the check to each delivery', async () => {
    for (const url of ['https://not-yet.example/hook', 'https://slow.example/hook']) {
      const response = await shop.v1('POST', '/webhooks', { body: { url } });
      expect(response.status, url).toBe(201);
    }
  });

  it('lets only the signed-in owner allow local targets', async () => {
    const byKey = await shop.portal('PUT', '/config', { body: { allow_local_webhooks: true } });
    expectStatus(byKey, 403);
    expect(byKey.body.error.param).toBe('allow_local_webhooks');
    const cookie = await shop.signIn();
    const byOwner = await server.request('PUT', `/api/portal/${shop.clientId}/config`, {
      body: { allow_local_webhooks: true },
      headers: { cookie },
    });
    expectStatus(byOwner, 200);
    expect(byOwner.body.allow_local_webhooks).toBe(true);
    expect((await shop.v1('POST', '/webhooks', { body: { url: receiver.url } })).status).toBe(201);
  });

  it("always refuses this server's own port", async () => {
    for (const url of [
      `http://127.0.0.1:${server.port}/api/v1/clients`,
      `http://localhost:${server.port}/api/v1/clients`,
      `http://[::1]:${server.port}/`,
    ]) {
      const response = expectError(await shop.portal('POST', '/webhooks', { body: { url } }));
      expect(response.status, url).toBe(400);
      expect(response.body.error.message).toContain('this Shopdesk server');
    }
  });

  it('shows what the receiver answered to the portal, never to a v1 key', async () => {
    const account = await server.createAccount({ business: 'Echo' });
    await updateConfig(server.ctx, account.clientId, { allow_local_webhooks: true });
    const portalHook = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    const v1Hook = expectOk(await account.v1('POST', '/webhooks', { body: { url: receiver.url } }));
    await account.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    await server.outbound.webhooks.runDue();
    const portalHistory = expectOk(await account.portal('GET', `/webhooks/${portalHook.body.id}/deliveries`));
    expect(portalHistory.body.data[0]!.attempts[0]).toMatchObject({
      response_code: 200,
      response_body: 'internal secret page',
    });
    const v1History = expectOk(await account.v1('GET', `/webhooks/${v1Hook.body.id}/deliveries`));
    expect(v1History.body.data[0]!.attempts[0]).toMatchObject({ response_code: 200, response_body: null });
    const one = await account.v1(
      'GET',
      `/webhooks/${v1Hook.body.id}/deliveries/${v1History.body.data[0]!.id}`,
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
    const byPublicName = await account.portal('POST', '/webhooks', {
      body: { url: receiver.url.replace('127.0.0.1', 'localtest.me') },
    });
    const byNat64 = await account.portal('POST', '/webhooks', {
      body: { url: receiver.url.replace('127.0.0.1', '[64:ff9b::7f00:1]') },
    });
    await updateConfig(server.ctx, account.clientId, { allow_local_webhooks: false });
    const before = receiver.received.length;
    await account.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    await server.outbound.webhooks.runDue();
    expect(receiver.received.length).toBe(before);
    for (const hook of [byIp, byName, byPublicName, byNat64]) {
      expectStatus(hook, 201);
      const history = expectOk(await account.portal('GET', `/webhooks/${hook.body.id}/deliveries`));
      expect(history.body.data[0]!.attempts[0]).toMatchObject({ response_code: null });
      expect(history.body.data[0]!.attempts[0]!.error).toContain('Not sent');
    }
  });
});
