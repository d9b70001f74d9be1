import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import type { ApiError } from '../../server/lib/errors';
import { pgHubDeliveries } from '../../server/sync/hub/pg-deliveries';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import { snapshotPageText } from '../../server/sync/hub/snapshot';
import { sqliteHubDeliveries } from '../../server/sync/hub/sqlite-deliveries';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import type { HubDevice, HubStorage, PulledRow, PushedChange } from '../../server/sync/hub/storage';
import type { HubDeliveryStorage } from '../../server/sync/hub/webhook-deliveries';
import { openDatabase } from '../../server/sync/open';
import { ALIAS_TABLE } from '../../server/sync/synced-table';
import type { SyncSnapshotResponse } from '../../shared/schemas/sync';
import { startPostgresForSuite } from '../helpers/postgres';

/**
 * The hub-storage contract (server/sync/hub/storage.ts), run against both implementations: the
 * embedded SQLite hub and the hosted PostgreSQL hub (on a database of this file's own).
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

const clockAt = (n: number) => `${String(1_800_000_000_000 + n).padStart(15, '0')}.${'0'.repeat(10)}.node`;

function member(accountId: string, id: string, name: string, n: number): PushedChange['state'] {
  const values = { id, account_id: accountId, name, created_at: '2026-11-22T09:00:00Z', _deleted: 0 };
  return { v: values, c: Object.fromEntries(Object.keys(values).map((k) => [k, clockAt(n)])) };
}

function customer(accountId: string, id: string, email: string, n: number): PushedChange['state'] {
  const values = {
    id,
    account_id: accountId,
    name: `Customer ${id}`,
    email,
    email_lower: email.toLowerCase(),
    created_at: '2026-11-22T09:00:00Z',
    _deleted: 0,
  };
  return { v: values, c: Object.fromEntries(Object.keys(values).map((k) => [k, clockAt(n)])) };
}

/** A business with its hub device and `devices` joined devices. */
async function business(hub: Hub, devices: number) {
  const accountId = `acct_${randomUUID()}`;
  const own = await hub.adopt(accountId, 'Hub');
  const joined: HubDevice[] = [];
  for (let i = 0; i < devices; i++) {
    const pairing = await hub.createPairing(accountId, 'http://hub.invalid');
    joined.push((await hub.join(pairing.pairing_code, `Device ${i}`)).device);
  }
  return { accountId, own, devices: joined };
}

async function pullAll(hub: Hub, accountId: string, limit = 1000): Promise<PulledRow[]> {
  const rows: PulledRow[] = [];
  let cursor = 0;
  for (;;) {
    const page = await hub.pull(accountId, cursor, limit);
    rows.push(...page.rows);
    cursor = page.cursor;
    if (!page.has_more) return rows;
  }
}

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

describe('two hub processes on one PostgreSQL database', () => {
  const sharedUrl = startPostgresForSuite();
  const clock = manualClock();
  const hubs: Hub[] = [];
  const hubPools: pg.Pool[] = [];
  const process = async (name: string) => {
    const pool = new pg.Pool({ connectionString: sharedUrl(), max: 3, application_name: name });
    hubPools.push(pool);
    await migratePgHub(pool);
    const hub = new Hub(pgHubStorage(pool), clock);
    hubs.push(hub);
    return { pool, hub };
  };
  afterAll(async () => {
    for (const hub of hubs) hub.shutdown();
    await Promise.all(hubPools.splice(0).map((pool) => pool.end()));
  });

  it('loses and reorders no change while devices push through both at once', async () => {
    const [a, b] = await Promise.all([process('hub-a'), process('hub-b')]);
    const { accountId, devices } = await business(a.hub, 6);
    const ROUNDS = 6;
    const BATCH = 15;
    const SHARED = 5;
    /** Every device edits the same few rows too; the highest clock must win wherever it was pushed. */
    const winner = new Map<string, { n: number; name: string }>();
    const created = new Set<string>();
    const pushers = devices.map(async (device, d) => {
      let localSeq = 0;
      for (let round = 0; round < ROUNDS; round++) {
        const changes: PushedChange[] = Array.from({ length: BATCH }, (_, i) => {
          const n = (round * BATCH + i) * devices.length + d + 1;
          const id = i < SHARED ? `tm_shared_${i}` : `tm_${d}_${round}_${i}`;
          const name = `${id} by ${d} at ${n}`;
          if (i < SHARED && (winner.get(id)?.n ?? 0) < n) winner.set(id, { n, name });
          if (i >= SHARED) created.add(JSON.stringify([id]));
          return {
            local_seq: ++localSeq,
            table: 'team_members',
            pk: JSON.stringify([id]),
            state: member(accountId, id, name, n),
          };
        });
        const through = (round + d) % 2 === 0 ? a.hub : b.hub;
        const result = await through.push(device, changes);
        expect(result.acknowledged).toBe(localSeq);
      }
    });

    // A device pulling all along, through the other process: its cursor must never pass a row still to come.
    const seen = new Map<string, PulledRow>();
    let pushing = true;
    const puller = (async () => {
      let cursor = 0;
      for (;;) {
        const last = !pushing;
        const page = await b.hub.pull(accountId, cursor, 13);
        for (const row of page.rows) {
          expect(row.seq).toBeGreaterThan(cursor);
          seen.set(`${row.table} ${row.pk}`, row);
        }
        cursor = page.cursor;
        if (last && !page.has_more) return;
      }
    })();
    await Promise.all(pushers);
    pushing = false;
    await puller;

    const rows = await pullAll(a.hub, accountId, 50);
    const seqs = rows.map((r) => r.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
    expect([...seqs].sort((x, y) => x - y)).toEqual(seqs);
    const keys = rows.map((r) => r.pk);
    expect(new Set(keys).size).toBe(keys.length);
    expect(keys.filter((k) => created.has(k))).toHaveLength(created.size);
    for (const [id, { name }] of winner) {
      expect(rows.find((r) => r.pk === JSON.stringify([id]))?.state.v.name).toBe(name);
    }
    expect(new Map(rows.map((r) => [`${r.table} ${r.pk}`, r]))).toEqual(seen);
  });

  it('keeps nothing of a push whose process died mid-transaction, and takes it again', async () => {
    const [a] = await Promise.all([process('hub-dying'), process('hub-other')]);
    const { accountId, devices } = await business(a.hub, 1);
    const device = devices[0]!;
    const row = (id: string, n: number, seq: number) => ({
      local_seq: seq,
      table: 'team_members',
      pk: JSON.stringify([id]),
      state: member(accountId, id, `${id} ${n}`, n),
    });
    await a.hub.push(device, [row('tm_held', 1, 1)]);
    // Another transaction holds a row the push will write after its first rows: the push waits there.
    const holder = new pg.Pool({ connectionString: sharedUrl(), max: 2 });
    hubPools.push(holder);
    const held = await holder.connect();
    await held.query('BEGIN');
    await held.query('SELECT 1 FROM hub_rows WHERE pk = \'["tm_held"]\' FOR UPDATE');
    const push = a.hub.push(device, [row('tm_new_1', 2, 2), row('tm_new_2', 3, 3), row('tm_held', 4, 4)]);
    const failed = push.catch((error: Error) => error);
    for (;;) {
      const waiting = await holder.query(
        "SELECT pid FROM pg_stat_activity WHERE application_name = 'hub-dying' AND wait_event_type = 'Lock'",
      );
      if (waiting.rows.length > 0) {
        await holder.query('SELECT pg_terminate_backend($1)', [waiting.rows[0].pid]);
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    expect(await failed).toBeInstanceOf(Error);
    await held.query('ROLLBACK');
    held.release();

    const before = await pullAll(a.hub, accountId);
    expect(before.map((r) => r.pk)).toEqual(['["tm_held"]']);
    const retried = await a.hub.push(device, [
      row('tm_new_1', 2, 2),
      row('tm_new_2', 3, 3),
      row('tm_held', 4, 4),
    ]);
    expect(retried).toEqual({ acknowledged: 4, accepted: 3, last_seq: 4 });
  });

  it('ends a long poll on one process when a push goes through the other', async () => {
    const [a, b] = await Promise.all([process('hub-wake-a'), process('hub-wake-b')]);
    const { accountId, devices } = await business(a.hub, 1);
    const started = Date.now();
    let answered = false;
    const waiting = b.hub.pull(accountId, 0, 100, 25_000).finally(() => {
      answered = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    // Pushed again until heard: the other process's LISTEN connection may still be on its way.
    for (let n = 1; !answered && Date.now() - started < 10_000; n++) {
      const id = `tm_wake_${n}`;
      await a.hub.push(devices[0]!, [
        {
          local_seq: n,
          table: 'team_members',
          pk: JSON.stringify([id]),
          state: member(accountId, id, id, n),
        },
      ]);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    expect((await waiting).rows.length).toBeGreaterThan(0);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('a hosted hub holding two businesses', () => {
  const url = startPostgresForSuite();
  const clock = manualClock();
  let pool: pg.Pool;
  let hub: Hub;
  /** The statements sent while `counting` is set, through any client of the pool. */
  const statements: string[] = [];
  let counting = false;
  beforeAll(async () => {
    pool = new pg.Pool({ connectionString: url(), max: 2 });
    const patched = new WeakSet<pg.PoolClient>();
    pool.on('acquire', (client) => {
      if (patched.has(client)) return;
      patched.add(client);
      const query = client.query.bind(client) as (...args: unknown[]) => unknown;
      Object.assign(client, {
        query: (...args: unknown[]) => {
          if (counting) statements.push(String(typeof args[0] === 'string' ? args[0] : ''));
          return query(...args);
        },
      });
    });
    await migratePgHub(pool);
    hub = new Hub(pgHubStorage(pool), clock);
  });
  afterAll(async () => {
    hub?.shutdown();
    await pool?.end();
  });

  let seq = 0;
  const push = (device: HubDevice, changes: Array<Omit<PushedChange, 'local_seq'>>) =>
    hub.push(
      device,
      changes.map((change) => ({ ...change, local_seq: ++seq })),
    );
  const newCustomer = (accountId: string, id: string) => ({
    table: 'customers',
    pk: JSON.stringify([id]),
    state: customer(accountId, id, `${id}@x.test`, ++seq),
  });
  const job = (id: string, v: Record<string, unknown>) => ({
    table: 'jobs',
    pk: JSON.stringify([id]),
    state: {
      v: { id, ...v },
      c: Object.fromEntries(['id', ...Object.keys(v)].map((k) => [k, clockAt(++seq)])),
    },
  });
  const refusal = (promise: Promise<unknown>) =>
    promise.then(
      () => undefined,
      (error: ApiError) => ({ status: error.status, code: error.code, param: error.options.param }),
    );

  it('refuses a key or a parent of another business, also a parent the change leaves to the held row', async () => {
    const a = await business(hub, 1);
    const b = await business(hub, 1);
    const [aDevice, bDevice] = [a.devices[0]!, b.devices[0]!];
    const bCustomer = `cus_${randomUUID()}`;
    const aCustomer = `cus_${randomUUID()}`;
    const aJob = `job_${randomUUID()}`;
    await push(bDevice, [newCustomer(b.accountId, bCustomer)]);
    await push(aDevice, [
      newCustomer(a.accountId, aCustomer),
      job(aJob, { account_id: a.accountId, customer_id: aCustomer, title: 'Mine' }),
    ]);
    const before = await pullAll(hub, b.accountId);

    expect(await refusal(push(aDevice, [newCustomer(a.accountId, bCustomer)]))).toEqual({
      status: 403,
      code: 'cross_business_change',
      param: 'changes[0].pk',
    });
    expect(
      await refusal(
        push(aDevice, [job(`job_${randomUUID()}`, { account_id: a.accountId, customer_id: bCustomer })]),
      ),
    ).toEqual({ status: 403, code: 'cross_business_change', param: 'changes[0].state.v.customer_id' });

    // A row stored before the hub checked, naming B's customer: a change that leaves the customer
    // out keeps it, and is refused too.
    await pool.query(
      `UPDATE hub_rows SET vals = jsonb_set(vals::jsonb, '{customer_id}', to_jsonb($3::text))::text
       WHERE account_id = $1 AND tbl = 'jobs' AND pk = $2`,
      [a.accountId, JSON.stringify([aJob]), bCustomer],
    );
    expect(await refusal(push(aDevice, [job(aJob, { title: 'Renamed' })]))).toEqual({
      status: 403,
      code: 'cross_business_change',
      param: 'changes[0].state.v.customer_id',
    });
    expect(await pullAll(hub, b.accountId)).toEqual(before);
    expect((await pullAll(hub, a.accountId)).map((r) => r.state.v.title)).not.toContain('Renamed');

    // A key both businesses hold already (stored before the hub checked): each holds its own.
    await pool.query(
      `INSERT INTO hub_rows (account_id, tbl, pk, seq, vals, clocks)
       SELECT $1, tbl, pk, -1, vals, clocks FROM hub_rows WHERE account_id = $2 AND tbl = 'customers' AND pk = $3`,
      [a.accountId, b.accountId, JSON.stringify([bCustomer])],
    );
    const renamed = {
      table: 'customers',
      pk: JSON.stringify([bCustomer]),
      state: { v: { name: 'Kept apart' }, c: { name: clockAt(++seq) } },
    };
    expect(await push(aDevice, [renamed])).toMatchObject({ accepted: 1 });
    expect(await pullAll(hub, b.accountId)).toEqual(before);
  });

  it('checks every change of a push in the queries it reads the push with', async () => {
    const { accountId, devices } = await business(hub, 1);
    const device = devices[0]!;
    const customers = Array.from({ length: 40 }, () => `cus_${randomUUID()}`);
    const jobs = customers.slice(0, 20).map(() => `job_${randomUUID()}`);
    await push(device, [
      ...customers.map((id) => newCustomer(accountId, id)),
      ...jobs.map((id, i) => job(id, { account_id: accountId, customer_id: customers[i], title: 'First' })),
    ]);
    const counted = async (changes: Array<Omit<PushedChange, 'local_seq'>>) => {
      statements.length = 0;
      counting = true;
      try {
        expect((await push(device, changes)).accepted).toBe(changes.length);
      } finally {
        counting = false;
      }
      return statements.length;
    };
    const one = await counted([job(jobs[0]!, { title: 'Second' })]);
    // New jobs naming their customers, and title changes whose customer only the held rows name.
    const many = await counted([
      ...customers
        .slice(20)
        .map((id) => job(`job_${randomUUID()}`, { account_id: accountId, customer_id: id })),
      ...jobs.map((id) => job(id, { title: 'Third' })),
    ]);
    expect(many).toBe(one);
  });
});
