import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { hubRows } from '../../server/client-hub/hub-rows';
import { installRows } from '../../server/client-hub/install-rows';
import { memberFromRows } from '../../server/client-hub/member-sign-in';
import { updateConfig } from '../../server/domain/accounts';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { expectOk, expectStatus } from '../helpers/api-responses';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

/**
 * A team member joins on the hosted hub (PostgreSQL) while the owner's computer is off: the
 * invitation synced up is redeemed once from the hub's rows, the session it opens signs the
 * member in there, and the owner's revocation, synced, ends it (docs/crew.md).
 */
const ADMIN_TOKEN = 'hub-admin-token-for-tests-0123456789';
const databaseUrl = startPostgresForSuite();
let pool: pg.Pool;
let hosted: HostedHub;
let office: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  hosted = await startHostedHub({ pool, port: 0, adminToken: ADMIN_TOKEN });
  office = await startTestServer();
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
  await updateConfig(office.ctx, shop.clientId, { client_hub_url: hosted.url });
  await office.ctx.sync!.upload(shop.clientId, { url: hosted.url }, ADMIN_TOKEN, 'Office');
}, 120_000);

afterAll(async () => {
  await office?.stop();
  await hosted?.close();
  await pool?.end();
});

const sync = () => office.ctx.sync!.syncNow(shop.clientId);

async function hubPage(path: string, init: RequestInit = {}) {
  const response = await fetch(path.startsWith('http') ? path : `${hosted.url}${path}`, {
    redirect: 'manual',
    ...init,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

describe('joining on the hosted hub', () => {
  it('redeems the invitation once from the hub’s rows and the owner’s revocation ends the session', async () => {
    const ana = expectOk(await shop.portal('POST', '/team', { body: { name: 'Ana', role: 'office' } }));
    const invite = expectOk(await shop.portal('POST', `/team/${ana.body.id}/invites`, { body: {} }));
    expect(invite.body.url.startsWith(`${hosted.url}/join/minv_`)).toBe(true);
    expect((await hubPage(invite.body.url)).status).toBe(410);
    await sync();

    const shown = await hubPage(invite.body.url);
    expectStatus(shown, 200);
    expect(shown.text).toContain('Join Sparkle Cleaning as Ana');
    const formToken = /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!;
    const post = () =>
      hubPage(invite.body.url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: hosted.url },
        body: new URLSearchParams({ form_token: formToken }).toString(),
      });
    const joined = await post();
    expectStatus(joined, 303);
    // The hub has no office screens: office and owner land on the crew's app too.
    expect(joined.headers.get('location')).toBe('/crew/');
    const setCookie = joined.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^sd_member=mss_/);
    expect(setCookie).toContain('HttpOnly');
    expect(setCookie).toContain('SameSite=Lax');
    expect((await post()).status).toBe(410);

    const token = setCookie.split(';')[0]!.split('=')[1]!;
    const onHub = hubRows(hosted.hub.storage, () => Date.now());
    expect((await memberFromRows(onHub, token, new Date()))?.member).toMatchObject({
      id: ana.body.id,
      role: 'office',
    });

    await sync();
    const used = await office.ctx.db
      .selectFrom('member_invites')
      .select('used_at')
      .where('member_id', '=', ana.body.id)
      .executeTakeFirstOrThrow();
    expect(used.used_at).not.toBeNull();
    const onInstall = installRows(office.ctx, () => {});
    expect((await memberFromRows(onInstall, token, new Date()))?.member.id).toBe(ana.body.id);
    const sessions = expectOk(await shop.portal('GET', `/team/${ana.body.id}/sessions`));
    expect(sessions.body.data).toHaveLength(1);

    await shop.portal('POST', `/team/${ana.body.id}/sessions/revoke`);
    expect(await memberFromRows(onInstall, token, new Date())).toBeUndefined();
    expect(await memberFromRows(onHub, token, new Date())).toBeDefined();
    await sync();
    expect(await memberFromRows(onHub, token, new Date())).toBeUndefined();
  });

  it('signs a member out on the hub: the session ends there and, synced, on the install', async () => {
    const bo = expectOk(await shop.portal('POST', '/team', { body: { name: 'Bo' } }));
    const invite = expectOk(await shop.portal('POST', `/team/${bo.body.id}/invites`, { body: {} }));
    await sync();
    const shown = await hubPage(invite.body.url);
    const formToken = /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!;
    const joined = await hubPage(invite.body.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: hosted.url },
      body: new URLSearchParams({ form_token: formToken }).toString(),
    });
    const cookie = joined.headers.get('set-cookie')!.split(';')[0]!;
    const out = await hubPage('/member/sign-out', {
      method: 'POST',
      headers: { cookie, origin: hosted.url },
    });
    expectStatus(out, 204);
    const token = cookie.split('=')[1]!;
    expect(
      await memberFromRows(
        hubRows(hosted.hub.storage, () => Date.now()),
        token,
        new Date(),
      ),
    ).toBeUndefined();
    await sync();
    expect(
      await memberFromRows(
        installRows(office.ctx, () => {}),
        token,
        new Date(),
      ),
    ).toBeUndefined();
  });
});
