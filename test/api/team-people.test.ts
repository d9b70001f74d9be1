import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';
import { assert, register } from '../helpers/soft-authenticator';

/**
 * Team members as people (docs/crew.md): details and roles, invitations redeemed once on an
 * install, sessions the owner lists and ends, sign-out, and passkeys verified for real.
 */
let office: TestServer;
let shop: TestAccount;

beforeAll(async () => {
  office = await startTestServer();
  shop = await office.createAccount({ business: 'Sparkle Cleaning' });
}, 120_000);

afterAll(async () => {
  await office?.stop();
});

async function page(path: string, init: RequestInit = {}) {
  const response = await fetch(path.startsWith('http') ? path : `${office.url}${path}`, {
    redirect: 'manual',
    ...init,
  });
  return { status: response.status, headers: response.headers, text: await response.text() };
}

/** Opens an invitation and presses its button, as the member's phone does: the session cookie. */
async function join(url: string): Promise<{ cookie: string; location: string | null }> {
  const shown = await page(url);
  expectStatus(shown, 200);
  const formToken = /name="form_token" value="([^"]+)"/.exec(shown.text)![1]!;
  const posted = await page(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: office.url,
      'user-agent': 'Phone/1.0',
    },
    body: new URLSearchParams({ form_token: formToken }).toString(),
  });
  expectStatus(posted, 303);
  return {
    cookie: posted.headers.get('set-cookie')!.split(';')[0]!,
    location: posted.headers.get('location'),
  };
}

async function member(body: Record<string, unknown>) {
  const created = await shop.portal('POST', '/team', { body });
  expectStatus(created, 201);
  return created.body as { id: string };
}

const invite = async (id: string, body: Record<string, unknown> = {}) =>
  shop.portal('POST', `/team/${id}/invites`, { body });

/** WebAuthn's request options, which the document leaves open, as the authenticator reads them. */
type Challenge = Parameters<typeof assert>[1];

const asMember = (cookie: string) => ({ key: null, headers: { cookie, origin: office.url } });

async function signedIn(cookie: string) {
  return (await office.request('GET', '/api/session', { headers: { cookie } })).status;
}

describe('team members as people', () => {
  it('keeps role, e-mail, phone and price visibility, with clear errors for bad ones', async () => {
    const ana = await shop.portal('POST', '/team', {
      body: { name: 'Ana', email: 'ana@example.com', phone: '+1 555 0100', can_see_prices: true },
    });
    expectStatus(ana, 201);
    expect(ana.body).toMatchObject({
      role: 'crew',
      email: 'ana@example.com',
      phone: '+1 555 0100',
      can_see_prices: true,
      live_sessions: 0,
      passkeys: 0,
    });
    const bad = await shop.portal('POST', '/team', { body: { name: 'Bad', email: 'not-an-email' } });
    expectStatus(bad, 400);
    expect(bad.body.error.param).toBe('email');
    const role = await shop.portal('POST', '/team', { body: { name: 'Rex', role: 'boss' } });
    expectStatus(role, 400);
  });

  it('lets only an owner set roles and prices, and keeps the last owner', async () => {
    const olga = await member({ name: 'Olga', role: 'office', email: 'olga@example.com' });
    const { cookie, location } = await join(okBody(await invite(olga.id)).url);
    expect(location).toBe('/');
    const crew = await member({ name: 'Cody' });
    const asOffice = asMember(cookie);
    const promote = await shop.portal('PATCH', `/team/${crew.id}`, { ...asOffice, body: { role: 'office' } });
    expectStatus(promote, 403);
    expect(promote.body.error).toMatchObject({
      code: 'role_forbidden',
      type: 'permission_error',
      param: 'role',
    });
    const prices = expectError(
      await shop.portal('PATCH', `/team/${crew.id}`, {
        ...asOffice,
        body: { can_see_prices: true },
      }),
    );
    expect(prices.body.error.code).toBe('role_forbidden');
    const made = await shop.portal('POST', '/team', { ...asOffice, body: { name: 'Dee', role: 'owner' } });
    expectStatus(made, 403);
    const phone = await shop.portal('PATCH', `/team/${crew.id}`, {
      ...asOffice,
      body: { phone: '555 0101' },
    });
    expectStatus(phone, 200);
    expect(phone.body.phone).toBe('555 0101');

    const bea = await member({ name: 'Bea', role: 'owner' });
    const demote = await shop.portal('PATCH', `/team/${bea.id}`, { body: { role: 'crew' } });
    expectStatus(demote, 409);
    expect(demote.body.error.message).toContain('only owner');
    expect((await shop.portal('PATCH', `/team/${bea.id}`, { body: { active: false } })).status).toBe(409);
    expect((await shop.portal('DELETE', `/team/${bea.id}`)).status).toBe(409);
    await member({ name: 'Bo', role: 'owner' });
    expect((await shop.portal('PATCH', `/team/${bea.id}`, { body: { role: 'office' } })).status).toBe(200);
  });
});

describe('invitations on an install', () => {
  it('answers a link with its QR code, e-mails it, and lets the newest one in once', async () => {
    const ana = await member({ name: 'Ava', email: 'ava@example.com' });
    const first = await invite(ana.id);
    expectStatus(first, 201);
    expect(first.body.url).toMatch(new RegExp(`^${office.url}/join/minv_`));
    expect(first.body.qr_svg).toMatch(/^<svg/);
    const second = expectOk(await invite(ana.id, { email: true }));
    expect(second.body.emailed_to).toBe('ava@example.com');
    const mail = await office.ctx.db
      .selectFrom('mail_messages')
      .select(['to_address', 'body', 'purpose'])
      .where('to_address', '=', 'ava@example.com')
      .executeTakeFirstOrThrow();
    expect(mail.purpose).toBe('member_invite');
    expect(mail.body).toContain(second.body.url);

    const replaced = await page(first.body.url);
    expectStatus(replaced, 410);
    expect(replaced.text).toContain('Ask the owner for a new link');
    const shown = await page(second.body.url);
    expect(shown.text).toContain('Join Sparkle Cleaning as Ava');
    expect(shown.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(shown.text).not.toContain('<script');

    const noToken = await page(second.body.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: office.url },
      body: 'form_token=wrong',
    });
    expectStatus(noToken, 403);
    const elsewhere = await page(second.body.url, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', origin: 'http://evil.example' },
      body: 'form_token=x',
    });
    expectStatus(elsewhere, 403);

    const { cookie, location } = await join(second.body.url);
    expect(location).toBe('/crew/');
    expect(await signedIn(cookie)).toBe(200);
    expect((await page(second.body.url)).status).toBe(410);
  });

  it('is the owner’s alone to create', async () => {
    const cy = await member({ name: 'Cy' });
    const { cookie } = await join(okBody(await invite(cy.id)).url);
    const byCrew = await shop.portal('POST', `/team/${cy.id}/invites`, { ...asMember(cookie), body: {} });
    expectStatus(byCrew, 403);
    expect(byCrew.body.error.code).toBe('role_forbidden');
    expect((await shop.portal('GET', `/team/${cy.id}/sessions`, asMember(cookie))).status).toBe(403);
    const withV1Key = await shop.portal('POST', `/team/${cy.id}/invites`, { key: shop.v1Key, body: {} });
    expectStatus(withV1Key, 403);
    expect(withV1Key.body.error.type).toBe('permission_error');
    expect((await shop.portal('POST', `/team/${cy.id}/invites`, { key: null, body: {} })).status).toBe(401);
    const noMail = await invite(cy.id, { email: true });
    expectStatus(noMail, 409);
  });
});

describe('sessions per person', () => {
  it('are listed and ended by the owner, one or all, and by the member signing out', async () => {
    const dan = await member({ name: 'Dan' });
    const one = await join(okBody(await invite(dan.id)).url);
    const two = await join(okBody(await invite(dan.id)).url);
    const listed = expectOk(await shop.portal('GET', `/team/${dan.id}/sessions`));
    expect(listed.body.data).toHaveLength(2);
    expect(listed.body.data[0]).toMatchObject({ object: 'member_session', user_agent: 'Phone/1.0' });
    const revoked = expectOk(
      await shop.portal('POST', `/team/${dan.id}/sessions/${listed.body.data[0]!.id}/revoke`),
    );
    expect(revoked.body).toEqual({ revoked: 1 });
    expect(await signedIn(two.cookie)).toBe(401);
    expect(await signedIn(one.cookie)).toBe(200);

    const out = await page('/member/sign-out', {
      method: 'POST',
      headers: { cookie: one.cookie, origin: office.url },
    });
    expectStatus(out, 204);
    expect(out.headers.get('set-cookie')).toContain('Max-Age=0');
    expect(await signedIn(one.cookie)).toBe(401);

    const three = await join(okBody(await invite(dan.id)).url);
    const four = await join(okBody(await invite(dan.id)).url);
    expect(okBody(await shop.portal('POST', `/team/${dan.id}/sessions/revoke`))).toEqual({ revoked: 2 });
    expect(await signedIn(three.cookie)).toBe(401);
    expect(await signedIn(four.cookie)).toBe(401);

    const five = await join(okBody(await invite(dan.id)).url);
    expect(
      okBody(await shop.portal('GET', '/team')).data.find((m: any) => m.id === dan.id)!.live_sessions,
    ).toBe(1);
    await shop.portal('PATCH', `/team/${dan.id}`, { body: { active: false } });
    expect(await signedIn(five.cookie)).toBe(401);
    expect(okBody(await shop.portal('GET', `/team/${dan.id}/sessions`)).data).toEqual([]);
  });
});

describe('passkeys', () => {
  it('register for a signed-in member and sign them in; a forgery and a revoked key are refused', async () => {
    const eve = await member({ name: 'Eve' });
    const { cookie } = await join(okBody(await invite(eve.id)).url);
    const json = <P extends string>(path: P, body: unknown, headers: Record<string, string> = {}) =>
      office.request('POST', path, { key: null, body, headers: { origin: office.url, ...headers } });

    expect((await json('/member/passkeys/registration-options', {})).status).toBe(401);
    const options = await json('/member/passkeys/registration-options', {}, { cookie });
    expectStatus(options, 200);
    // The document leaves WebAuthn's options open: typed here as the authenticator reads them.
    const creation = options.body as Parameters<typeof register>[0];
    expect(creation.rp.id).toBe('127.0.0.1');
    const { passkey, response } = register(creation, office.url);
    const added = await json('/member/passkeys/registration', response, { cookie });
    expectStatus(added, 201);
    const listed = expectOk(await shop.portal('GET', `/team/${eve.id}/passkeys`));
    expect(listed.body.data).toEqual([
      {
        object: 'member_passkey',
        id: added.body.id,
        transports: ['internal'],
        created_at: expect.any(String),
      },
    ]);

    const signIn = async (wrongKey = false) => {
      const challenge = okBody(await json('/member/passkeys/authentication-options', {}));
      return json(
        '/member/passkeys/authentication',
        assert(passkey, challenge as Challenge, office.url, wrongKey),
      );
    };
    const ok = await signIn();
    expectStatus(ok, 200);
    expect(ok.body.redirect).toBe('/crew/');
    expect(await signedIn(ok.headers.get('set-cookie')!.split(';')[0]!)).toBe(200);

    const forged = await signIn(true);
    expectStatus(forged, 401);
    expect(forged.body.error.code).toBe('passkey_refused');

    const challenge = okBody(await json('/member/passkeys/authentication-options', {}));
    const answer = assert(passkey, challenge as Challenge, office.url);
    expect((await json('/member/passkeys/authentication', answer)).status).toBe(200);
    expect((await json('/member/passkeys/authentication', answer)).status).toBe(401);

    expect((await shop.portal('POST', `/team/${eve.id}/passkeys/${added.body.id}/revoke`)).status).toBe(200);
    expect((await signIn()).status).toBe(401);
    expect(okBody(await shop.portal('GET', `/team/${eve.id}/passkeys`)).data).toEqual([]);
  });
});
