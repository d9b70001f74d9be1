import pg from 'pg';
import { afterAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import type { PulledRow, PushedChange } from '../../server/sync/hub/storage';
import { startPostgresForSuite } from '../helpers/postgres';
import { business, member, pullAll } from './hub-fixtures';

/** The hosted hub run as two processes (two pools) on one PostgreSQL database. */
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
