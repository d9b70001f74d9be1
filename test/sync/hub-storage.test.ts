import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { pgHubDeliveries } from '../../server/sync/hub/pg-deliveries';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import { snapshotPageText } from '../../server/sync/hub/snapshot';
import { sqliteHubDeliveries } from '../../server/sync/hub/sqlite-deliveries';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import type { HubDevice, HubStorage } from '../../server/sync/hub/storage';
import type { HubDeliveryStorage } from '../../server/sync/hub/webhook-deliveries';
import { openDatabase } from '../../server/sync/open';
import { ALIAS_TABLE } from '../../server/sync/synced-table';
import type { SyncSnapshotResponse } from '../../shared/schemas/sync';
import { startPostgresForSuite } from '../helpers/postgres';
import { business, clockAt, customer, member, pullAll } from './hub-fixtures';

/**
 * The hub-storage contract (server/sync/hub/storage.ts), run against both implementations: the
 * embedded SQLite hub and the hosted PostgreSQL hub (on a database of this file's own). Two hub
 * processes on one database: hub-two-processes.test.ts; two businesses on one hosted hub:
 * hub-hosted-businesses.test.ts.
 */
interface OpenedStorage {
  storage: HubStorage;
  deliveries: HubDeliveryStorage;
  close(): Promise<void>;
}

const databaseUrl = startPostgresForSuite();
const pools: pg.Pool[] = [];

async function pgPool(): Promise<pg.Pool> {
  const pool = new pg.Pool({ connectionString: databaseUrl(), max: 4 });
  pools.push(pool);
  return pool;
}

const STORAGES: Array<[string, () => Promise<OpenedStorage>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-hub-storage-'));
      const database = await openDatabase(dir);
      return {
        storage: sqliteHubStorage(database.db, database.sqlite),
        deliveries: sqliteHubDeliveries(database.db, database.sqlite),
        close: async () => {
          await database.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const pool = await pgPool();
      await migratePgHub(pool);
      return { storage: pgHubStorage(pool), deliveries: pgHubDeliveries(pool), close: async () => {} };
    },
  ],
];

afterAll(async () => {
  await Promise.all(pools.splice(0).map((pool) => pool.end()));
});

describe.each(STORAGES)('the hub on %s', (_name, open) => {
  let opened: OpenedStorage;
  const clock = manualClock();
  let hub: Hub;
  beforeAll(async () => {
    opened = await open();
    hub = new Hub(opened.storage, clock);
  });
  afterAll(async () => {
    hub?.shutdown();
    await opened?.close();
  });

  it('skips a change it already acknowledged', async () => {
    const { accountId, devices } = await business(hub, 1);
    const change = {
      local_seq: 1,
      table: 'team_members',
      pk: '["tm_a"]',
      state: member(accountId, 'tm_a', 'Sam', 1),
    };
    const first = await hub.push(devices[0]!, [change]);
    const again = await hub.push(devices[0]!, [change]);
    expect(first).toEqual({ acknowledged: 1, accepted: 1, last_seq: 1 });
    expect(again).toEqual({ acknowledged: 1, accepted: 0, last_seq: 1 });
  });

  it('gives changed rows the next numbers in hub order and pages pulls by them', async () => {
    const { accountId, devices } = await business(hub, 2);
    const [a, b] = devices as [HubDevice, HubDevice];
    const changes = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        local_seq: i + 1,
        table: 'team_members',
        pk: JSON.stringify([`tm_${from + i}`]),
        state: member(accountId, `tm_${from + i}`, `Member ${from + i}`, from + i),
      }));
    await hub.push(a, changes(15, 0));
    await hub.push(b, changes(10, 100));
    // A newer edit of a row moves it to the end of hub order.
    const edit = {
      local_seq: 16,
      table: 'team_members',
      pk: '["tm_0"]',
      state: member(accountId, 'tm_0', 'Renamed', 500),
    };
    expect((await hub.push(a, [edit])).last_seq).toBe(26);

    const first = await hub.pull(accountId, 0, 10);
    expect(first.rows.map((r) => r.seq)).toEqual([2, 3, 4, 5, 6, 7, 8, 9, 10, 11]);
    expect(first).toMatchObject({ cursor: 11, has_more: true });
    const rows = await pullAll(hub, accountId, 7);
    expect(rows.map((r) => r.seq)).toEqual(Array.from({ length: 25 }, (_, i) => i + 2));
    expect(rows.at(-1)).toMatchObject({ pk: '["tm_0"]', state: { v: { name: 'Renamed' } } });
    expect(rows.at(-1)?.state).toEqual(edit.state);
  });

  it('merges two customers with one e-mail from two devices, the alias first', async () => {
    const { accountId, devices } = await business(hub, 2);
    const [a, b] = devices as [HubDevice, HubDevice];
    await hub.push(a, [
      {
        local_seq: 1,
        table: 'customers',
        pk: '["cus_a"]',
        state: customer(accountId, 'cus_a', 'Jo@x.com', 1),
      },
    ]);
    await hub.push(b, [
      {
        local_seq: 1,
        table: 'customers',
        pk: '["cus_b"]',
        state: customer(accountId, 'cus_b', 'jo@x.com', 2),
      },
    ]);
    const jobs = {
      local_seq: 2,
      table: 'jobs',
      pk: '["job_1"]',
      state: {
        v: { id: 'job_1', account_id: accountId, customer_id: 'cus_b' },
        c: { id: clockAt(3), account_id: clockAt(3), customer_id: clockAt(3) },
      },
    };
    await hub.push(b, [jobs]);

    const rows = await pullAll(hub, accountId);
    const alias = rows.findIndex((r) => r.table === ALIAS_TABLE);
    expect(rows[alias]).toMatchObject({ pk: '["customers","cus_b"]', state: { v: { to_id: 'cus_a' } } });
    // Both records still go out, each after the alias: devices merge them as they meet them.
    const customers = rows.filter((r) => r.table === 'customers');
    expect(customers.map((r) => r.pk)).toEqual(['["cus_b"]', '["cus_a"]']);
    expect(customers.every((r) => r.seq > rows[alias]!.seq)).toBe(true);
    expect(customers[1]!.state.v).toMatchObject({ id: 'cus_a', email: 'jo@x.com' });
    expect(rows.find((r) => r.table === 'jobs')?.state.v.customer_id).toBe('cus_a');
  });

  it('reads a snapshot at one number in key-ordered pages, later changes left to the pull', async () => {
    const { accountId, devices } = await business(hub, 1);
    const device = devices[0]!;
    const baseline = (id: string, name: string) => {
      const { v } = member(accountId, id, name, 0);
      return { v, c: Object.fromEntries(Object.keys(v).map((k) => [k, ''])) };
    };
    await hub.push(device, [
      ...Array.from({ length: 24 }, (_, i) => ({
        local_seq: i + 1,
        table: 'team_members',
        pk: JSON.stringify([`snap_${i}`]),
        state: member(accountId, `snap_${i}`, `Member ${i}`, i + 1),
      })),
      { local_seq: 25, table: 'team_members', pk: '["snap_base"]', state: baseline('snap_base', 'Base') },
    ]);
    const read = (after: string, upTo?: number) =>
      snapshotPageText(opened.storage, accountId, { table: 'team_members', after, upTo, limit: 10 }).then(
        (text) => JSON.parse(text) as SyncSnapshotResponse,
      );
    const first = await read('');
    expect(first.up_to).toBe(25);
    // Changed after the snapshot's number: left out of it, pulled from that number instead.
    await hub.push(device, [
      {
        local_seq: 26,
        table: 'team_members',
        pk: '["snap_9"]',
        state: member(accountId, 'snap_9', 'Nine', 99),
      },
      {
        local_seq: 27,
        table: 'team_members',
        pk: '["snap_new"]',
        state: member(accountId, 'snap_new', 'New', 99),
      },
    ]);
    const pages = [first];
    while (pages.at(-1)!.next !== null) pages.push(await read(pages.at(-1)!.next!, first.up_to));
    expect(pages.map((p) => p.rows.length)).toEqual([10, 10, 4]);
    const keys = pages.flatMap((p) => p.rows.map(([pk]) => JSON.stringify(pk)));
    expect(keys).toEqual([...keys].sort());
    expect(keys).not.toContain('["snap_9"]');
    expect(keys).toHaveLength(24);
    const base = pages.flatMap((p) => p.rows).find(([pk]) => pk[0] === 'snap_base')!;
    expect(base[1]).toMatchObject({ name: 'Base', _deleted: 0 });
    expect(base[2]).toBe(0);
    const tm3 = pages.flatMap((p) => p.rows).find(([pk]) => pk[0] === 'snap_3')!;
    expect(tm3[2]).toEqual(member(accountId, 'snap_3', 'Member 3', 4).c);
    const tail = await pullAll(hub, accountId);
    expect(tail.filter((r) => r.seq > first.up_to).map((r) => r.pk)).toEqual(['["snap_9"]', '["snap_new"]']);
    expect(await read(keys.at(-1)!, first.up_to)).toMatchObject({ rows: [], next: null });
  });

  it('leases disjoint number blocks, also to devices asking at once', async () => {
    const { accountId, devices } = await business(hub, 3);
    await opened.storage.seedNumbers(accountId, 'invoice', 41);
    const blocks = (
      await Promise.all(
        devices.flatMap((device) =>
          Array.from({ length: 4 }, () => hub.lease(device, ['invoice', 'quote'], 25)),
        ),
      )
    ).flatMap((lease) => lease.blocks);
    for (const series of ['invoice', 'quote']) {
      const sorted = blocks.filter((b) => b.series === series).sort((x, y) => x.start - y.start);
      expect(sorted[0]!.start).toBe(series === 'invoice' ? 41 : 1);
      for (const [i, block] of sorted.entries()) {
        expect(block.end - block.start).toBe(24);
        if (i > 0) expect(block.start).toBe(sorted[i - 1]!.end + 1);
      }
    }
  });

  it('redeems a pairing code once, and not after it expired', async () => {
    const { accountId } = await business(hub, 0);
    const pairing = await hub.createPairing(accountId, 'http://hub.invalid', 'Laptop');
    const joins = await Promise.allSettled([1, 2, 3].map(() => hub.join(pairing.pairing_code)));
    expect(joins.filter((j) => j.status === 'fulfilled')).toHaveLength(1);
    const late = await hub.createPairing(accountId, 'http://hub.invalid');
    clock.advance(16 * 60_000);
    await expect(hub.join(late.pairing_code)).rejects.toMatchObject({ code: 'pairing_code_invalid' });
  });

  it('gives devices joining at once letters of their own', async () => {
    const { accountId } = await business(hub, 0);
    const pairings = await Promise.all(
      [1, 2, 3, 4, 5].map(() => hub.createPairing(accountId, 'http://hub.invalid')),
    );
    const joined = await Promise.all(pairings.map((p) => hub.join(p.pairing_code)));
    expect(joined.map((j) => j.device.code).sort()).toEqual(['B', 'C', 'D', 'E', 'F']);
  });

  it('queues an event for a handed endpoint once, however often asked, and claims each delivery once', async () => {
    const { accountId, devices } = await business(hub, 1);
    const endpointId = `whk_${randomUUID().replaceAll('-', '')}`;
    const endpoint = {
      id: endpointId,
      account_id: accountId,
      interface: 'v1',
      url: 'https://example.com/hooks',
      events: '["*"]',
      enabled: 1,
      delivering_node: 'hub',
      _deleted: 0,
    };
    const event = (id: string) => ({
      id,
      account_id: accountId,
      type: 'customer.created',
      payload: `{"id":"${id}"}`,
      created_at: '2026-11-22T09:00:00Z',
      _deleted: 0,
    });
    const rows = [
      ['webhook_endpoints', endpoint],
      ['events', event(`evt_${endpointId.slice(4)}a`)],
      ['events', event(`evt_${endpointId.slice(4)}b`)],
    ] as const;
    const { deliveries } = opened;
    // The install hands the endpoint over before it writes it: the hub marks it at its sequence then.
    await deliveries.handOver(
      accountId,
      endpointId,
      { secret: 'whsec_first', previous_secret: null, previous_secret_expires_at: null },
      '2026-11-22T09:00:00Z',
    );
    const mark = (await deliveries.handedEndpoints()).find(
      (e) => e.endpoint_id === endpointId,
    )!.queued_through;
    await hub.push(
      devices[0]!,
      rows.map(([table, v], i) => ({
        local_seq: i + 1,
        table,
        pk: JSON.stringify([v.id]),
        state: { v, c: Object.fromEntries(Object.keys(v).map((k) => [k, clockAt(i)])) },
      })),
    );
    await deliveries.handOver(
      accountId,
      endpointId,
      {
        secret: 'whsec_second',
        previous_secret: 'whsec_first',
        previous_secret_expires_at: '2026-11-23T09:00:00Z',
      },
      '2026-11-22T09:01:00Z',
    );
    const handed = (await deliveries.handedEndpoints()).find((e) => e.endpoint_id === endpointId)!;
    expect(handed).toMatchObject({
      secret: 'whsec_second',
      previous_secret: 'whsec_first',
      // A rotation hands the secrets over again and leaves the mark where it was.
      queued_through: mark,
    });
    expect(handed.state?.v.url).toBe('https://example.com/hooks');

    const events = await deliveries.eventsAfter(accountId, mark, 10);
    expect(events.map((e) => e.state.v.id)).toEqual([rows[1][1].id, rows[2][1].id]);
    const queued = events.map((e) => ({
      event_id: String(e.state.v.id),
      event_type: 'customer.created',
      max_attempts: 7,
    }));
    const through = events.at(-1)!.seq;
    // Two processes queueing the same events at once still make one delivery per event.
    await Promise.all([
      deliveries.queue(accountId, endpointId, queued, through, '2026-11-22T10:00:00Z'),
      deliveries.queue(accountId, endpointId, queued, through, '2026-11-22T10:00:00Z'),
    ]);
    expect(await deliveries.deliveries(accountId, endpointId)).toHaveLength(2);
    expect(
      (await deliveries.handedEndpoints()).find((e) => e.endpoint_id === endpointId)?.queued_through,
    ).toBe(through);

    const claims = await Promise.all([
      deliveries.claim('2026-11-22T10:00:00Z', '2026-11-22T10:00:30Z', 10),
      deliveries.claim('2026-11-22T10:00:00Z', '2026-11-22T10:00:30Z', 10),
    ]);
    const mine = claims.flat().filter((c) => c.endpoint_id === endpointId);
    expect(mine.map((c) => c.event_id).sort()).toEqual(queued.map((q) => q.event_id).sort());
    expect(mine[0]).toMatchObject({ status: 'sending', secret: 'whsec_second', attempts: 0 });
    expect(mine[0]!.endpoint?.v.url).toBe('https://example.com/hooks');
    expect(mine[0]!.event?.v.payload).toBe(`{"id":"${mine[0]!.event_id}"}`);

    const [done, retry] = mine as [(typeof mine)[0], (typeof mine)[0]];
    const outcome = { response_code: 200, error: null, now: '2026-11-22T10:00:01Z' };
    expect(
      await deliveries.record(done.id, {
        ...outcome,
        status: 'succeeded',
        attempts: 1,
        next_attempt_at: null,
      }),
    ).toBe(true);
    expect(
      await deliveries.record(done.id, {
        ...outcome,
        status: 'succeeded',
        attempts: 1,
        next_attempt_at: null,
      }),
    ).toBe(false);
    await deliveries.record(retry.id, {
      ...outcome,
      response_code: 500,
      error: 'The receiver answered 500',
      status: 'pending',
      attempts: 1,
      next_attempt_at: '2026-11-22T10:01:00Z',
    });
    const early = await deliveries.claim('2026-11-22T10:00:59Z', '2026-11-22T10:01:30Z', 10);
    expect(early.filter((c) => c.endpoint_id === endpointId)).toEqual([]);
    const due = await deliveries.claim('2026-11-22T10:01:00Z', '2026-11-22T10:01:30Z', 10);
    expect(due.filter((c) => c.endpoint_id === endpointId).map((c) => [c.id, c.attempts])).toEqual([
      [retry.id, 1],
    ]);
    // A claim whose holder stopped is taken back once it lapses.
    const lapsed = await deliveries.claim('2026-11-22T10:01:30Z', '2026-11-22T10:02:00Z', 10);
    expect(lapsed.filter((c) => c.endpoint_id === endpointId).map((c) => c.id)).toEqual([retry.id]);
    expect(
      (await deliveries.deliveries(accountId, endpointId))
        .map((d) => [d.status, d.last_response_code])
        .sort(),
    ).toEqual([
      ['sending', 500],
      ['succeeded', 200],
    ]);
  });

  it('lists, touches and revokes devices', async () => {
    const { accountId, own, devices } = await business(hub, 1);
    const listed = await hub.devices(accountId, own.id);
    expect(listed.map((d) => [d.code, d.role])).toEqual([
      ['A', 'hub'],
      ['B', 'device'],
    ]);
    await hub.revoke(accountId, devices[0]!.id, own.id);
    await expect(hub.revoke(accountId, devices[0]!.id, own.id)).rejects.toMatchObject({ status: 404 });
    expect(await opened.storage.hasBusiness(accountId)).toBe(true);
    expect(await opened.storage.hasBusiness('acct_none')).toBe(false);
  });
});
