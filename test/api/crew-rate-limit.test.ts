import { afterAll, beforeAll, expect, it } from 'vitest';
import type { z } from 'zod';
import { CREW_SESSION_LIMIT } from '../../server/client-hub/crew-api-routes';
import { openMemberSession } from '../../server/domain/member-sessions';
import { manualClock } from '../../server/lib/clock';
import type { ErrorBody } from '../../shared/schemas/common';
import type { TeamMember } from '../../shared/schemas/team';
import { startTestServer, type TestServer } from '../helpers/server';

type Failure = z.infer<typeof ErrorBody>;

/**
 * The crew's phone API and a member's passkey calls are rate limited (docs/crew.md, "The phone"):
 * past the limit a session gets 429 in the contract's shape with Retry-After, other sessions go on,
 * and the next minute it may call again. The clock stands still, so the minute cannot turn mid-count.
 */
const clock = manualClock('2026-11-22T09:00:00Z');
let server: TestServer;

beforeAll(async () => {
  server = await startTestServer({ clock });
}, 120_000);

afterAll(async () => {
  await server?.stop();
});

it('answers 429 with Retry-After to a session past its limit, and not to another', async () => {
  const shop = await server.createAccount({ business: 'Sparkle' });
  await shop.portal('PUT', '/config', { body: { client_hub_url: server.url, serve_client_hub: true } });
  const cookies: string[] = [];
  for (const name of ['Sam Rivera', 'Lee Park']) {
    const member = await shop.portal<TeamMember>('POST', '/team', { body: { name } });
    const session = await server.ctx.db
      .transaction()
      .execute((tx) => openMemberSession(tx, clock, shop.clientId, member.body.id, 'phone'));
    cookies.push(`${server.app.sessionCookie}=${encodeURIComponent(session.token)}`);
  }
  const [sam, lee] = cookies as [string, string];
  const week = (cookie: string) =>
    server.request<Failure>('GET', '/crew/api/week', { key: null, headers: { cookie } });

  for (let i = 0; i < CREW_SESSION_LIMIT; i++) expect((await week(sam)).status).toBe(200);
  const refused = await week(sam);
  expect(refused.status).toBe(429);
  expect(refused.headers.get('retry-after')).toBe('60');
  expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
  expect((await week(lee)).status).toBe(200);
  clock.advance(60_000);
  expect((await week(sam)).status).toBe(200);
});

it('answers the passkey calls past the address limit in the contract shape', async () => {
  const options = () =>
    server.request<Failure>('POST', '/member/passkeys/authentication-options', {
      key: null,
      body: {},
      headers: { origin: server.url },
    });
  let answer = await options();
  while (answer.status === 200) answer = await options();
  expect(answer.status).toBe(429);
  expect(Number(answer.headers.get('retry-after'))).toBeGreaterThan(0);
  expect(answer.body.error.code).toBe('rate_limited');
});
