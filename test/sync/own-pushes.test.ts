import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { Hub } from '../../server/sync/hub/service';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import type { HubDevice, PushedChange } from '../../server/sync/hub/storage';
import { type OpenedDatabase, openDatabase } from '../../server/sync/open';
import { business, customer, member } from './hub-fixtures';

/**
 * The embedded hub tells its own install when a push left every row exactly as pushed, right
 * after the rows before it (hub/storage.ts `as_pushed_after`): the install then moves its cursor
 * past the push instead of pulling its own rows back (device/round.ts). Anything the merge changed
 * must come back in the pull, so each such case answers nothing.
 */
let dir: string;
let database: OpenedDatabase;
let hub: Hub;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-own-pushes-'));
  database = await openDatabase(dir);
  hub = new Hub(sqliteHubStorage(database.db, database.sqlite), manualClock());
});
afterAll(async () => {
  hub.shutdown();
  await database.close();
  rmSync(dir, { recursive: true, force: true });
});

const change = (local_seq: number, table: string, id: string, state: PushedChange['state']) => ({
  local_seq,
  table,
  pk: JSON.stringify([id]),
  state,
});

describe("the hub's answer to its own install", () => {
  it('names the number before a push taken as sent, and only to the install', async () => {
    const { accountId, own, devices } = await business(hub, 1);
    const first = await hub.push(
      own,
      [change(1, 'team_members', 'tm_a', member(accountId, 'tm_a', 'Sam', 1))],
      true,
    );
    expect(first).toEqual({ acknowledged: 1, accepted: 1, last_seq: 1, as_pushed_after: 0 });
    const second = await hub.push(
      own,
      [
        change(2, 'team_members', 'tm_a', member(accountId, 'tm_a', 'Samantha', 2)),
        change(3, 'team_members', 'tm_b', member(accountId, 'tm_b', 'Lee', 3)),
      ],
      true,
    );
    expect(second).toEqual({ acknowledged: 3, accepted: 2, last_seq: 3, as_pushed_after: 1 });
    // A device's answer keeps the wire shape.
    const device = await hub.push(devices[0]!, [
      change(1, 'team_members', 'tm_c', member(accountId, 'tm_c', 'Kim', 4)),
    ]);
    expect(device).toEqual({ acknowledged: 1, accepted: 1, last_seq: 4 });
  });

  it('names none when a column lost to a newer one, a record merged, or a change was sent again', async () => {
    const { accountId, own, devices } = await business(hub, 1);
    const device = devices[0] as HubDevice;
    await hub.push(device, [change(1, 'team_members', 'tm_a', member(accountId, 'tm_a', 'Newer', 9))]);
    const lost = await hub.push(
      own,
      [change(1, 'team_members', 'tm_a', member(accountId, 'tm_a', 'Older', 5))],
      true,
    );
    expect(lost.as_pushed_after).toBeUndefined();

    await hub.push(device, [change(2, 'customers', 'cus_a', customer(accountId, 'cus_a', 'jo@x.com', 6))]);
    const merged = await hub.push(
      own,
      [change(2, 'customers', 'cus_b', customer(accountId, 'cus_b', 'Jo@x.com', 7))],
      true,
    );
    expect(merged.accepted).toBeGreaterThan(1);
    expect(merged.as_pushed_after).toBeUndefined();

    const again = await hub.push(
      own,
      [change(2, 'customers', 'cus_b', customer(accountId, 'cus_b', 'Jo@x.com', 7))],
      true,
    );
    expect(again.as_pushed_after).toBeUndefined();
  });

  it("settles the install's answer in the push's own commit: one fails, neither is kept", async () => {
    const { accountId, own, devices } = await business(hub, 1);
    const { sqlite } = database;
    const stored = (id: string) =>
      sqlite
        .prepare('SELECT count(*) AS n FROM hub_rows WHERE account_id = ? AND pk = ?')
        .get(accountId, JSON.stringify([id])) as { n: number };
    let seen: { inTransaction: boolean; rows: number } | undefined;
    const kept = await hub.push(
      own,
      [change(1, 'team_members', 'tm_a', member(accountId, 'tm_a', 'Sam', 1))],
      true,
      () => {
        seen = { inTransaction: sqlite.inTransaction, rows: stored('tm_a').n };
      },
    );
    expect(kept.accepted).toBe(1);
    expect(seen).toEqual({ inTransaction: true, rows: 1 });

    await expect(
      hub.push(own, [change(2, 'team_members', 'tm_b', member(accountId, 'tm_b', 'Lee', 2))], true, () => {
        throw new Error('the acknowledgement failed');
      }),
    ).rejects.toThrow('the acknowledgement failed');
    expect(stored('tm_b').n).toBe(0);
    const retried = await hub.push(
      own,
      [change(2, 'team_members', 'tm_b', member(accountId, 'tm_b', 'Lee', 2))],
      true,
    );
    expect(retried).toMatchObject({ acknowledged: 2, accepted: 1 });

    // Only the hub's own install has bookkeeping in this file.
    let called = false;
    await hub.push(
      devices[0]!,
      [change(1, 'team_members', 'tm_c', member(accountId, 'tm_c', 'Kim', 3))],
      false,
      () => {
        called = true;
      },
    );
    expect(called).toBe(false);
  });
});
