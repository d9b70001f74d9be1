import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openMemberSession } from '../../server/domain/member-sessions';
import { type HostedHub, startHostedHub } from '../../server/sync/hub/hosted';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { startPostgresForSuite } from '../helpers/postgres';
import { startTestServer, type TestServer } from '../helpers/server';
import { assert, register } from '../helpers/soft-authenticator';

/**
 * Passkey challenges hold no state in the process (docs/crew-design.md, "Passkeys"): two hosted
 * hub processes on one database, as behind a load balancer, each finish a ceremony the other
 * began, and an answer already used is refused.
 */
const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];
const hubs: HostedHub[] = [];
let office: TestServer;

beforeAll(async () => {
  for (let i = 0; i < 3; i++) pools.push(new pg.Pool({ connectionString: databaseUrl(), max: 4 }));
  await migratePgHub(pools[0]!);
  office = await startTestServer({ hubStorage: pgHubStorage(pools[0]!) });
  for (const pool of pools.slice(1)) hubs.push(await startHostedHub({ pool, port: 0 }));
}, 120_000);

afterAll(async () => {
  for (const hub of hubs) await hub.close();
  await office?.stop();
  await Promise.all(pools.map((p) => p.end()));
});

interface Answer {
  status: number;
  body: {
    challenge: string;
    rpId: string;
    rp: { id: string };
    user: { id: string };
    error?: { code: string };
  };
}

/** A POST from the member's page, which the balancer sent to this process. */
async function post(hub: HostedHub, path: string, body: unknown, cookie?: string): Promise<Answer> {
  const response = await fetch(`${hub.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: hub.url, ...(cookie && { cookie }) },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: (await response.json()) as Answer['body'] };
}

it('finishes a ceremony on another process than the one that began it, and refuses a used answer', async () => {
  const [first, second] = hubs as [HostedHub, HostedHub];
  const account = await office.createAccount({ business: 'Sparkle Windows' });
  expect((await account.portal('POST', '/sync/pair')).status).toBe(200);
  const added = await account.portal<{ id: string }>('POST', '/team', { body: { name: 'Sam Rivera' } });
  const session = await office.ctx.db
    .transaction()
    .execute((tx) => openMemberSession(tx, office.ctx.clock, account.clientId, added.body.id, 'phone'));
  await office.ctx.sync!.syncNow(account.clientId);
  const cookie = `sd_member=${encodeURIComponent(session.token)}`;

  const options = await post(first, '/member/passkeys/registration-options', {}, cookie);
  expect(options.status).toBe(200);
  const { passkey, response } = register(options.body, second.url);
  expect((await post(second, '/member/passkeys/registration', response, cookie)).status).toBe(201);
  const again = await post(second, '/member/passkeys/registration', response, cookie);
  expect(again.status).toBe(401);
  expect(again.body.error?.code).toBe('passkey_refused');

  const challenge = await post(second, '/member/passkeys/authentication-options', {});
  const answer = assert(passkey, challenge.body, first.url);
  expect((await post(first, '/member/passkeys/authentication', answer)).status).toBe(200);
  const replayed = await post(first, '/member/passkeys/authentication', answer);
  expect(replayed.status).toBe(401);
  expect(replayed.body.error?.code).toBe('passkey_refused');

  // A sign-in's challenge does not register a key, and a challenge no hub signed signs no one in.
  const signInChallenge = await post(first, '/member/passkeys/authentication-options', {});
  const misused = register({ ...options.body, challenge: signInChallenge.body.challenge }, first.url);
  expect((await post(first, '/member/passkeys/registration', misused.response, cookie)).status).toBe(401);
  const made = Buffer.from(`sign-in|${Date.now()}|nonce|not-a-signature`).toString('base64url');
  const forged = assert(passkey, { ...challenge.body, challenge: made }, first.url);
  expect((await post(first, '/member/passkeys/authentication', forged)).status).toBe(401);
}, 120_000);
