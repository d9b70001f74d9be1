import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import {
  PAIRING_FAILURE_WINDOW_MS,
  PAIRING_FAILURES_OVERALL,
  PAIRING_FAILURES_PER_ADDRESS,
} from '../../server/sync/hub/pairing-attempts';
import { expectStatus } from '../helpers/api-responses';
import { type RawResponse, rawRequest } from '../helpers/raw-http';
import { startTestServer, type TestServer } from '../helpers/server';

const servers: TestServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((s) => s.stop()));
});

async function hubWithCode() {
  // The middle of a window, so the test's own requests never cross into the next one.
  const clock = manualClock('2026-11-22T09:07:00Z');
  const hub = await startTestServer({ clock });
  servers.push(hub);
  const account = await hub.createAccount();
  const pairing = await account.portal('POST', '/sync/pair', { body: { name: 'Laptop' } });
  expectStatus(pairing, 200);
  return { hub, clock, code: pairing.body.pairing_code as string };
}

/** A join from `localAddress`: each 127.x.y.z address is another computer to the hub. */
const join = (hub: TestServer, code: string, localAddress = '127.0.0.1') =>
  rawRequest(
    hub.url,
    'POST',
    '/api/sync/v1/join',
    { 'content-type': 'application/json' },
    JSON.stringify({ code }),
    { localAddress },
  );

const expectLimited = (response: RawResponse) => {
  expectStatus(response, 429);
  expect(response.json.error).toMatchObject({
    code: 'rate_limited',
    request_id: expect.stringMatching(/^req_/),
  });
  expect(Number(response.headers['retry-after'])).toBeGreaterThan(0);
  expect(Number(response.headers['retry-after'])).toBeLessThanOrEqual(PAIRING_FAILURE_WINDOW_MS / 1000);
};

describe('wrong pairing codes', () => {
  it('are limited per address: then even the right code waits for the window to end', async () => {
    const { hub, clock, code } = await hubWithCode();
    for (let i = 0; i < PAIRING_FAILURES_PER_ADDRESS; i++) {
      const wrong = await join(hub, 'AAAAA-AAAAA');
      expectStatus(wrong, 401);
      expect(wrong.json.error.code).toBe('pairing_code_invalid');
    }
    expectLimited(await join(hub, 'AAAAA-AAAAA'));
    expectLimited(await join(hub, code));
    // Another computer is not held back by this one's failures, and its right code works.
    const elsewhere = await join(hub, code, '127.0.0.2');
    expectStatus(elsewhere, 200);
    expect(elsewhere.json.credential).toMatch(/^sd_sync_/);

    clock.advance(PAIRING_FAILURE_WINDOW_MS);
    const later = await join(hub, 'AAAAA-AAAAA');
    expectStatus(later, 401);
  });

  it('are limited overall, whatever the addresses they come from', async () => {
    const { hub, code } = await hubWithCode();
    const addresses = PAIRING_FAILURES_OVERALL / PAIRING_FAILURES_PER_ADDRESS;
    for (let a = 0; a < addresses; a++) {
      for (let i = 0; i < PAIRING_FAILURES_PER_ADDRESS; i++)
        expect((await join(hub, 'BBBBB-BBBBB', `127.0.1.${a + 1}`)).status).toBe(401);
    }
    expectLimited(await join(hub, code, '127.0.2.1'));
  });

  it('count a code already used, but not a right one', async () => {
    const { hub, code } = await hubWithCode();
    expect((await join(hub, code)).status).toBe(200);
    const again = await join(hub, code);
    expectStatus(again, 401);
    for (let i = 1; i < PAIRING_FAILURES_PER_ADDRESS; i++)
      expect((await join(hub, 'CCCCC-CCCCC')).status).toBe(401);
    expectLimited(await join(hub, 'CCCCC-CCCCC'));
  });
});
