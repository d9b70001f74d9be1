import { afterEach, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectOk, expectStatus, okBody } from '../helpers/api-responses';
import { startTestServer, type TestServer } from '../helpers/server';
import { answer, type Receiver, startReceiver } from './receiver';

const SECOND = 1000;
const MINUTE = 60 * SECOND;

let server: TestServer | undefined;
let receiver: Receiver | undefined;
afterEach(async () => {
  await server?.stop();
  await receiver?.close();
});

async function setUp(status: number, options: { jitter?: () => number; concurrency?: number } = {}) {
  const clock = manualClock('2026-11-22T09:00:00Z');
  server = await startTestServer({
    clock,
    localWebhooks: true,
    outbound: { webhooks: { jitter: () => 1, ...options } },
  });
  receiver = await startReceiver(answer(status, 'nope'));
  const account = await server.createAccount();
  return { clock, server, receiver, account };
}

/** Moves the clock and sends what became due; returns how many requests the receiver got in all. */
async function at(clock: ReturnType<typeof manualClock>, s: TestServer, r: Receiver, advanceMs: number) {
  clock.advance(advanceMs);
  await s.outbound.webhooks.runDue();
  return r.received.length;
}

describe('portal schedule', () => {
  it('tries at 0 s, 10 s and 60 s after the event, then gives up', async () => {
    const { clock, server: s, receiver: r, account } = await setUp(500);
    const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: r.url } }));
    await account.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    expect(await at(clock, s, r, 0)).toBe(1);
    expect(await at(clock, s, r, 9 * SECOND)).toBe(1);
    expect(await at(clock, s, r, 1 * SECOND)).toBe(2);
    expect(await at(clock, s, r, 49 * SECOND)).toBe(2);
    expect(await at(clock, s, r, 1 * SECOND)).toBe(3);
    expect(await at(clock, s, r, 60 * MINUTE)).toBe(3);
    expect(r.received.map((q) => q.headers['x-service-attempt'])).toEqual(['1', '2', '3']);

    const history = expectOk(await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries`));
    const delivery = history.body.data[0];
    expect(delivery).toMatchObject({ status: 'failed', attempt_count: 3, next_attempt_at: null });
    expect(delivery!.attempts).toMatchObject([
      {
        attempt: 1,
        status: 'failed',
        response_code: 500,
        response_body: 'nope',
        error: 'The receiver answered 500',
        attempted_at: '2026-11-22T09:00:00Z',
        next_attempt_at: '2026-11-22T09:00:10Z',
      },
      { attempt: 2, attempted_at: '2026-11-22T09:00:10Z', next_attempt_at: '2026-11-22T09:01:00Z' },
      { attempt: 3, attempted_at: '2026-11-22T09:01:00Z', next_attempt_at: null },
    ]);
    expect(delivery!.attempts[0]!.duration_ms).toBeGreaterThanOrEqual(0);
    // The portal never disables an endpoint.
    const after = expectOk(await account.portal('GET', `/webhooks/${endpoint.body.id}`));
    expect(after.body).toMatchObject({ enabled: true, consecutive_failures: 3 });
  });

  it('does not retry a 4xx answer', async () => {
    const { clock, server: s, receiver: r, account } = await setUp(410);
    const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: r.url } }));
    await account.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    expect(await at(clock, s, r, 0)).toBe(1);
    expect(await at(clock, s, r, 10 * MINUTE)).toBe(1);
    const history = expectOk(
      await account.portal('GET', `/webhooks/${endpoint.body.id}/deliveries?status=failed`),
    );
    expect(history.body.data[0]).toMatchObject({ attempt_count: 1, last_response_code: 410 });
  });
});

describe('v1 schedule', () => {
  it('retries after 1, 4, 16, 64, 256 and 1024 minutes, and retries a 4xx too', async () => {
    const { clock, server: s, receiver: r, account } = await setUp(404);
    const endpoint = expectOk(await account.v1('POST', '/webhooks', { body: { url: r.url } }));
    await account.v1('POST', '/clients', { body: { name: 'Ada', email: 'ada@example.com' } });
    expect(await at(clock, s, r, 0)).toBe(1);
    let expected = 1;
    for (const minutes of [1, 4, 16, 64, 256, 1024]) {
      expect(await at(clock, s, r, minutes * MINUTE - SECOND)).toBe(expected);
      expect(await at(clock, s, r, SECOND)).toBe(++expected);
    }
    expect(await at(clock, s, r, 7 * 24 * 60 * MINUTE)).toBe(7);
    const history = expectOk(await account.v1('GET', `/webhooks/${endpoint.body.id}/deliveries`));
    expect(history.body.data[0]).toMatchObject({ status: 'failed', attempt_count: 7, max_attempts: 7 });
  });

  it('spreads retries by the jitter factor', async () => {
    const { clock, server: s, receiver: r, account } = await setUp(500, { jitter: () => 1.1 });
    const endpoint = expectOk(await account.v1('POST', '/webhooks', { body: { url: r.url } }));
    await account.v1('POST', `/webhooks/${endpoint.body.id}/test`);
    await at(clock, s, r, 0);
    const history = expectOk(await account.v1('GET', `/webhooks/${endpoint.body.id}/deliveries`));
    expect(history.body.data[0]!.next_attempt_at).toBe('2026-11-22T09:01:06Z');
    expect(await at(clock, s, r, MINUTE)).toBe(1);
    expect(await at(clock, s, r, 6 * SECOND)).toBe(2);
  });

  it('disables an endpoint after 20 consecutive failed attempts until it is re-enabled', async () => {
    // One at a time, so no attempt is already on its way when the twentieth failure is recorded.
    const { clock, server: s, receiver: r, account } = await setUp(500, { concurrency: 1 });
    const endpoint = expectOk(await account.v1('POST', '/webhooks', { body: { url: r.url } }));
    const path = `/webhooks/${endpoint.body.id}` as const;
    // Three deliveries of seven attempts each: the endpoint is disabled at the twentieth.
    const tests = [];
    for (let i = 0; i < 3; i++) tests.push(okBody(await account.v1('POST', `${path}/test`)).id);
    await at(clock, s, r, 0);
    for (const minutes of [1, 4, 16, 64, 256, 1024]) await at(clock, s, r, minutes * MINUTE);
    expect(r.received).toHaveLength(20);

    const disabled = expectOk(await account.v1('GET', path));
    expect(disabled.body).toMatchObject({
      enabled: false,
      disabled_reason: 'consecutive_failures',
      consecutive_failures: 20,
    });
    const waiting = expectOk(await account.v1('GET', `${path}/deliveries?status=pending`));
    expect(waiting.body.data).toHaveLength(1);
    // Disabled endpoints get no new deliveries, and what waits is not sent.
    await account.v1('POST', '/clients', { body: { name: 'Bo', email: 'bo@example.com' } });
    expect(await at(clock, s, r, 24 * 60 * MINUTE)).toBe(20);
    expect((await account.v1('POST', `${path}/test`)).status).toBe(409);

    r.handle(answer(204));
    const enabled = expectOk(await account.v1('POST', `${path}/enable`));
    expect(enabled.body).toMatchObject({ enabled: true, disabled_reason: null, consecutive_failures: 0 });
    expect(await at(clock, s, r, 0)).toBe(21);
    const last = r.received[20]!;
    expect(tests).toContain(last.headers['x-service-delivery-id']);
    expect(last.headers['x-service-attempt']).toBe('7');
    const after = expectOk(await account.v1('GET', `${path}/deliveries?status=succeeded`));
    expect(after.body.data).toHaveLength(1);
  });
});

describe('secret rotation', () => {
  it('signs with both secrets for 24 hours, then with the new one only', async () => {
    const { clock, server: s, receiver: r, account } = await setUp(200);
    const endpoint = expectOk(await account.portal('POST', '/webhooks', { body: { url: r.url } }));
    const rotated = await account.portal('POST', `/webhooks/${endpoint.body.id}/rotate-secret`);
    expectStatus(rotated, 200);
    expect(rotated.body.secret).toMatch(/^whsec_[0-9A-Za-z]{32}$/);
    expect(rotated.body.secret).not.toBe(endpoint.body.secret);
    expect(rotated.body.previous_secret_expires_at).toBe('2026-11-23T09:00:00Z');

    const { signatureMatches } = await import('./receiver');
    await account.portal('POST', `/webhooks/${endpoint.body.id}/test`);
    await at(clock, s, r, 0);
    const during = r.received[0]!;
    expect(String(during.headers['x-service-signature']).split(',')).toHaveLength(2);
    expect(signatureMatches(during, rotated.body.secret)).toBe(true);
    expect(signatureMatches(during, endpoint.body.secret)).toBe(true);

    clock.advance(24 * 60 * MINUTE + SECOND);
    await account.portal('POST', `/webhooks/${endpoint.body.id}/test`);
    await at(clock, s, r, 0);
    const after = r.received[1]!;
    expect(String(after.headers['x-service-signature']).split(',')).toHaveLength(1);
    expect(signatureMatches(after, rotated.body.secret)).toBe(true);
    expect(signatureMatches(after, endpoint.body.secret)).toBe(false);
  });
});

describe('timeouts and connection errors', () => {
  it('records a receiver that does not answer in time and one that is not there', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    server = await startTestServer({
      clock,
      localWebhooks: true,
      outbound: { webhooks: { jitter: () => 1, timeoutMs: 300 } },
    });
    receiver = await startReceiver(() => undefined);
    const account = await server.createAccount();
    const silent = expectOk(await account.portal('POST', '/webhooks', { body: { url: receiver.url } }));
    const closed = await startReceiver();
    await closed.close();
    const absent = expectOk(await account.portal('POST', '/webhooks', { body: { url: closed.url } }));
    for (const endpoint of [silent, absent]) {
      await account.portal('POST', `/webhooks/${endpoint.body.id}/test`);
    }
    await server.outbound.webhooks.runDue();
    const silentHistory = expectOk(await account.portal('GET', `/webhooks/${silent.body.id}/deliveries`));
    expect(silentHistory.body.data[0]!.attempts[0]).toMatchObject({
      status: 'failed',
      response_code: null,
      error: 'No answer within 0.3 s',
      next_attempt_at: '2026-11-22T09:00:10Z',
    });
    const absentHistory = expectOk(await account.portal('GET', `/webhooks/${absent.body.id}/deliveries`));
    expect(absentHistory.body.data[0]!.attempts[0]!.error).toMatch(/^Could not connect: .*ECONNREFUSED/);
  });
});
