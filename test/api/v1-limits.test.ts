import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { type ApiPlan, setPlans } from '../../server/domain/accounts';
import { createKey } from '../../server/domain/api-keys';
import { manualClock } from '../../server/lib/clock';
import { openDatabase } from '../../server/sync/open';
import { expectStatus } from '../helpers/api-responses';
import { type ApiResponse, startTestServer, type TestServer } from '../helpers/server';

const HOUR_MS = 60 * 60 * 1000;
const epochSeconds = (iso: string) => Math.floor(new Date(iso).getTime() / 1000);

let dataDir: string | undefined;
let running: TestServer | undefined;

afterEach(async () => {
  await running?.stop();
  running = undefined;
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  dataDir = undefined;
});

async function start(clock: ReturnType<typeof manualClock>) {
  dataDir ??= mkdtempSync(path.join(tmpdir(), 'shopdesk-v1-limits-'));
  running = await startTestServer({ clock, dataDir });
  return running;
}

async function restart(clock: ReturnType<typeof manualClock>) {
  await running?.stop();
  return start(clock);
}

const get = (server: TestServer, key: string): Promise<ApiResponse> =>
  server.request('GET', '/api/v1/clients?limit=1', { key });

/** Puts an account's saved counters where a test needs them, as an earlier run would have left them. */
async function saveCounters(accountId: string, counts: { hour?: [number, number]; day?: [number, number] }) {
  const database = await openDatabase(dataDir!);
  for (const [window, value] of Object.entries(counts)) {
    const [windowStart, count] = value;
    await database.db
      .insertInto('rate_limit_windows')
      .values({ bucket: `v1:${accountId}:${window}`, window_start: windowStart, count })
      .onConflict((oc) => oc.column('bucket').doUpdateSet({ window_start: windowStart, count }))
      .execute();
  }
  await database.close();
}

describe('v1 rate limits', () => {
  it('lite: 100 an hour and 1,000 a day, refused requests use no quota', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    const server = await start(clock);
    const shop = await server.createAccount({ apiPlan: 'lite' });

    for (let i = 1; i <= 100; i++) {
      const ok = await get(server, shop.v1Key);
      expectStatus(ok, 200);
      if (i === 1 || i === 100) {
        expect(ok.headers.get('x-ratelimit-limit')).toBe('100');
        expect(ok.headers.get('x-ratelimit-remaining')).toBe(String(100 - i));
        expect(ok.headers.get('x-ratelimit-reset')).toBe(String(epochSeconds('2026-11-22T10:00:00Z')));
        expect(ok.headers.get('x-ratelimit-daily-limit')).toBe('1000');
        expect(ok.headers.get('x-ratelimit-daily-remaining')).toBe(String(1000 - i));
      }
    }
    clock.advance(15 * 60 * 1000);
    for (let i = 0; i < 3; i++) {
      const refused = await get(server, shop.v1Key);
      expectStatus(refused, 429);
      expect(refused.body.error).toMatchObject({ type: 'rate_limit_error', code: 'rate_limited' });
      expect(refused.body.error.message).toContain('100 requests an hour');
      expect(refused.headers.get('retry-after')).toBe(String(45 * 60));
      expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
      expect(refused.headers.get('x-ratelimit-daily-remaining')).toBe('900');
    }

    // Hours 10:00 to 18:59 take the other 900 of the day's 1,000.
    for (let hour = 10; hour <= 18; hour++) {
      clock.set(`2026-11-22T${hour}:00:00Z`);
      for (let i = 0; i < 100; i++) expect((await get(server, shop.v1Key)).status).toBe(200);
    }
    clock.set('2026-11-22T19:00:00Z');
    const daily = await get(server, shop.v1Key);
    expectStatus(daily, 429);
    expect(daily.body.error.message).toContain('1,000 requests a day');
    expect(daily.headers.get('x-ratelimit-remaining')).toBe('100');
    expect(daily.headers.get('x-ratelimit-daily-remaining')).toBe('0');
    expect(daily.headers.get('retry-after')).toBe(String(5 * 60 * 60));

    clock.set('2026-11-23T00:00:00Z');
    const nextDay = await get(server, shop.v1Key);
    expectStatus(nextDay, 200);
    expect(nextDay.headers.get('x-ratelimit-daily-remaining')).toBe('999');
  });

  it('counts per account, not per key', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    const server = await start(clock);
    const shop = await server.createAccount({ apiPlan: 'lite' });
    const other = await server.createAccount({ apiPlan: 'lite' });
    await get(server, shop.v1Key);
    const second = await createKey(server.ctx, shop.clientId, { kind: 'v1' });
    expect((await get(server, second.key)).headers.get('x-ratelimit-remaining')).toBe('98');
    expect((await get(server, other.v1Key)).headers.get('x-ratelimit-remaining')).toBe('99');
  });

  const tiers: Array<[Exclude<ApiPlan, 'none' | 'lite'>, number, number | null]> = [
    ['essential', 1_000, 20_000],
    ['business_suite', 10_000, 200_000],
    ['growth', 100_000, null],
  ];
  for (const [plan, hourly, daily] of tiers) {
    it(`${plan}: ${hourly.toLocaleString('en-US')} an hour and ${daily?.toLocaleString('en-US') ?? 'no limit'} a day`, async () => {
      const clock = manualClock('2026-11-22T09:30:00Z');
      const server = await start(clock);
      const shop = await server.createAccount({ apiPlan: 'lite' });
      await setPlans(server.ctx, shop.clientId, { apiPlan: plan });

      const first = await get(server, shop.v1Key);
      expectStatus(first, 200);
      expect(first.headers.get('x-ratelimit-limit')).toBe(String(hourly));
      expect(first.headers.get('x-ratelimit-remaining')).toBe(String(hourly - 1));
      expect(first.headers.get('x-ratelimit-daily-limit')).toBe(daily === null ? null : String(daily));
      expect(first.headers.get('x-ratelimit-daily-remaining')).toBe(
        daily === null ? null : String(daily - 1),
      );

      // Reaching the limits one request at a time would take minutes; start from saved counters instead.
      const hourStart = new Date('2026-11-22T09:00:00Z').getTime();
      const dayStart = new Date('2026-11-22T00:00:00Z').getTime();
      await running!.stop();
      running = undefined;
      await saveCounters(shop.clientId, {
        hour: [hourStart, hourly - 1],
        ...(daily !== null && { day: [dayStart, hourly] as [number, number] }),
      });
      const again = await start(clock);
      expect((await get(again, shop.v1Key)).status).toBe(200);
      const refused = await get(again, shop.v1Key);
      expectStatus(refused, 429);
      expect(refused.headers.get('retry-after')).toBe(String(30 * 60));

      clock.set('2026-11-22T10:00:00Z');
      expect((await get(again, shop.v1Key)).status).toBe(200);
      if (daily === null) return;
      await again.stop();
      running = undefined;
      await saveCounters(shop.clientId, { day: [dayStart, daily - 1] });
      const third = await start(clock);
      expect((await get(third, shop.v1Key)).status).toBe(200);
      const overDaily = await get(third, shop.v1Key);
      expectStatus(overDaily, 429);
      expect(overDaily.headers.get('x-ratelimit-daily-remaining')).toBe('0');
      expect(overDaily.headers.get('retry-after')).toBe(String(14 * 60 * 60));
    });
  }

  it('keeps its counts across a restart on the same data folder', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    const server = await start(clock);
    const shop = await server.createAccount({ apiPlan: 'lite' });
    for (let i = 0; i < 30; i++) await get(server, shop.v1Key);

    const restarted = await restart(clock);
    const after = await get(restarted, shop.v1Key);
    expectStatus(after, 200);
    expect(after.headers.get('x-ratelimit-remaining')).toBe('69');
    expect(after.headers.get('x-ratelimit-daily-remaining')).toBe('969');

    clock.advance(HOUR_MS);
    const later = await restart(clock);
    const nextHour = await get(later, shop.v1Key);
    expect(nextHour.headers.get('x-ratelimit-remaining')).toBe('99');
    expect(nextHour.headers.get('x-ratelimit-daily-remaining')).toBe('968');
  });

  it('saves its counts while running, not only on close', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    const server = await start(clock);
    const shop = await server.createAccount({ apiPlan: 'lite' });
    for (let i = 0; i < 5; i++) await get(server, shop.v1Key);
    await vi.waitFor(
      async () => {
        const row = await server.ctx.db
          .selectFrom('rate_limit_windows')
          .select('count')
          .where('bucket', '=', `v1:${shop.clientId}:hour`)
          .executeTakeFirst();
        expect(row?.count).toBe(5);
      },
      { timeout: 10_000, interval: 100 },
    );
  });
});
