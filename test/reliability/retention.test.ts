import { expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { expectStatus } from '../helpers/api-responses';
import { startTestServer } from '../helpers/server';
import { answer, startReceiver } from '../outbound/receiver';

const DAY = 24 * 60 * 60 * 1000;

async function count(server: Awaited<ReturnType<typeof startTestServer>>, table: string): Promise<number> {
  const row = await server.ctx.db
    .selectFrom(table as 'events')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

it('prunes replays after 24 h, finished deliveries and events after 30 days, and keeps business records', async () => {
  const clock = manualClock('2026-11-22T09:00:00Z');
  const server = await startTestServer({ clock, localWebhooks: true });
  const receiver = await startReceiver(answer(200));
  try {
    const shop = await server.createAccount();
    const signedIn = await shop.signIn();
    expect(signedIn).toMatch(/^sd_session_[0-9a-f]{12}=/);
    await shop.portal('POST', '/webhooks', { body: { url: receiver.url } });
    const created = await shop.v1('POST', '/clients', {
      body: { name: 'Ada', email: 'ada@example.com' },
      headers: { 'idempotency-key': 'first' },
    });
    expectStatus(created, 201);
    await server.outbound.webhooks.runDue();
    expect(receiver.received).toHaveLength(1);
    // A delivery still waiting keeps its event however old it is.
    await server.setOnline(false);
    await shop.portal('POST', '/customers', { body: { name: 'Bo', email: 'bo@example.com' } });

    // Within the windows nothing goes but the used, 15-minute sign-in link.
    clock.advance(DAY / 2);
    expect(await server.retention.runNow()).toEqual({
      idempotency_keys: 0,
      webhook_attempts: 0,
      webhook_deliveries: 0,
      events: 0,
      sessions: 0,
      sign_in_links: 1,
      rate_limit_windows: 0,
      record_changes: 0,
    });

    clock.advance(DAY);
    const afterADay = await server.retention.runNow();
    expect(afterADay.idempotency_keys).toBe(1);
    expect(await count(server, 'idempotency_keys')).toBe(0);
    const replay = await shop.v1('POST', '/clients', {
      body: { name: 'Ada', email: 'ada@example.com' },
      headers: { 'idempotency-key': 'first' },
    });
    expect(replay.headers.get('idempotent-replayed')).toBeNull();

    clock.advance(31 * DAY);
    const afterAMonth = await server.retention.runNow();
    expect(afterAMonth).toMatchObject({ webhook_attempts: 1, webhook_deliveries: 1, sessions: 1 });
    expect(afterAMonth.events).toBeGreaterThan(0);
    // The waiting delivery and its event stay; the customers (business records) all stay.
    expect(await count(server, 'webhook_deliveries')).toBeGreaterThan(0);
    const waiting = await server.ctx.db.selectFrom('webhook_deliveries').select('event_id').execute();
    for (const { event_id } of waiting) {
      expect(
        await server.ctx.db.selectFrom('events').select('id').where('id', '=', event_id).executeTakeFirst(),
      ).toBeDefined();
    }
    expect(await count(server, 'customers')).toBe(2);
  } finally {
    await server.stop();
    await receiver.close();
  }
});
