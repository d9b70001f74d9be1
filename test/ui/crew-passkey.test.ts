import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import type { Customer } from '../../shared/schemas/customer';
import type { TeamMember } from '../../shared/schemas/team';
import type { MemberInvite, MemberPasskey, MemberSession } from '../../shared/schemas/team-access';
import { startTestServer } from '../helpers/server';
import { screenshot } from './browser';
import { crewPhone } from './phone-page';
import { runBrowser } from './run-browser';

/**
 * Passkeys in the crew's app, in real Chromium at phone size with a virtual authenticator (Chrome
 * DevTools Protocol, as a phone's fingerprint unlock): invitation, join, add a passkey, sign out,
 * sign in with the passkey, today's list (docs/crew.md, "Sessions and passkeys"). The page is on
 * `localhost`: WebAuthn takes no IP address as the relying party, and localhost is a secure context.
 */
it('a member adds a passkey after joining and signs in with it after signing out', async () => {
  const server = await startTestServer();
  const local = server.url.replace('127.0.0.1', 'localhost');
  const shop = await server.createAccount({ business: 'Sparkle' });
  await shop.portal('PUT', '/config', { body: { client_hub_url: local, serve_client_hub: true } });
  const customer = await shop.portal<Customer>('POST', '/customers', {
    body: { name: 'Maya Chen', phone: '555-0100' },
  });
  const job = await shop.portal('POST', '/jobs/create', {
    body: {
      customer_id: customer.body.id,
      title: 'Windows',
      scheduled_start: new Date(Date.now() - 10 * 60_000).toISOString(),
      assignees: ['Sam Rivera'],
      notes: '- Front\n- Back',
    },
  });
  expect(job.status, JSON.stringify(job.body)).toBe(201);
  const team = await shop.portal<{ data: TeamMember[] }>('GET', '/team');
  const sam = team.body.data.find((m) => m.name === 'Sam Rivera')!;
  const invite = await shop.portal<MemberInvite>('POST', `/team/${sam.id}/invites`, { body: {} });
  expect(invite.body.url.startsWith(`${local}/join/`)).toBe(true);

  const browser = await runBrowser();
  const { context, page, errors } = await crewPhone(browser);
  const cdp = await context.newCDPSession(page);
  await cdp.send('WebAuthn.enable');
  const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
    options: {
      protocol: 'ctap2',
      transport: 'internal',
      hasResidentKey: true,
      hasUserVerification: true,
      isUserVerified: true,
    },
  });
  try {
    await page.goto(invite.body.url);
    await page.getByRole('button', { name: 'Join as Sam Rivera' }).tap();
    await page.waitForURL(`${local}/crew/`);
    await page.getByText('Maya Chen').waitFor();

    await page.getByRole('button', { name: 'You' }).tap();
    await page.getByRole('button', { name: 'Add a passkey' }).tap();
    await page.getByText('Passkey added: sign in with it next time.').waitFor();
    await screenshot(page, 'crew-you-passkey');
    const kept = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(kept.credentials).toHaveLength(1);
    expect(kept.credentials[0]!.isResidentCredential).toBe(true);
    const passkeys = await shop.portal<{ data: MemberPasskey[] }>('GET', `/team/${sam.id}/passkeys`);
    expect(passkeys.body.data).toHaveLength(1);

    await page.getByRole('button', { name: 'Sign out' }).tap();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    await reloadsSignedOut(page);
    await screenshot(page, 'crew-sign-in');

    await page.getByRole('button', { name: 'Sign in with a passkey' }).tap();
    await page.getByRole('button', { name: 'Today' }).waitFor();
    await page.getByText('Maya Chen').waitFor();
    await page.getByRole('heading', { name: "Sam Rivera's visits" }).waitFor();
    const sessions = await shop.portal<{ data: MemberSession[] }>('GET', `/team/${sam.id}/sessions`);
    // The invitation's session ended at sign-out; the passkey's is the one left.
    expect(sessions.body.data).toHaveLength(1);
    expect(errors).toEqual([]);
  } finally {
    await context.close();
    await browser.close();
    await server.stop();
  }
}, 120_000);

/** Signed out is signed out on the server too: opened again, the app asks to sign in. */
async function reloadsSignedOut(page: Page) {
  await page.reload();
  await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
  expect(await page.getByRole('navigation').isHidden()).toBe(true);
}
