import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { manualClock } from '../../server/lib/clock';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import type { HubDevice } from '../../server/sync/hub/storage';
import { openDatabase } from '../../server/sync/open';
import { DELETED, notSent, type SyncedTable } from '../../server/sync/synced-table';
import { SYNCED_TABLES } from '../../server/sync/tables';
import { startPgHubPoolForSuite } from '../helpers/postgres';
import { stamped } from './hub-fixtures';

const pool = startPgHubPoolForSuite();

/**
 * Every entry of every table's lists (server/sync/tables.ts), generated from the lists themselves:
 * a new table or column is covered without a new case.
 */
describe('the writable columns of every synced table', () => {
  it('classes every column of the schema: key, writable, operator, device-local or derived', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-columns-'));
    const database = await openDatabase(dir);
    try {
      for (const table of SYNCED_TABLES) {
        const columns = (
          database.sqlite.prepare(`PRAGMA table_info(${table.name})`).all() as Array<{ name: string }>
        ).map((c) => c.name);
        const classed = [...table.writable, ...(table.operator ?? []), ...notSent(table)].filter(
          (column) => column !== DELETED,
        );
        expect([...classed].sort(), table.name).toEqual([...columns].sort());
        expect(
          table.pk.filter((column) => !table.writable.includes(column)),
          table.name,
        ).toEqual([]);
        for (const column of Object.keys(table.parents ?? {}))
          expect(table.writable, `${table.name}.${column}`).toContain(column);
      }
    } finally {
      await database.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

interface OpenedHub {
  hub: Hub;
  close(): Promise<void>;
}

const HUBS: Array<[string, () => Promise<OpenedHub>]> = [
  [
    'SQLite',
    async () => {
      const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-columns-hub-'));
      const database = await openDatabase(dir);
      const hub = new Hub(sqliteHubStorage(database.db, database.sqlite), manualClock());
      return {
        hub,
        close: async () => {
          hub.shutdown();
          await database.close();
          rmSync(dir, { recursive: true, force: true });
        },
      };
    },
  ],
  [
    'PostgreSQL',
    async () => {
      const hub = new Hub(pgHubStorage(pool()), manualClock());
      return { hub, close: async () => hub.shutdown() };
    },
  ],
];

/** A row of every synced table for one business, each naming the rows of its parents. */
function rowsOf(accountId: string): Map<string, { key: unknown[]; v: Record<string, unknown> }> {
  const rows = new Map<string, { key: unknown[]; v: Record<string, unknown> }>();
  const idOf = (table: string) => `${table}_probe`;
  for (const table of SYNCED_TABLES) {
    const v: Record<string, unknown> = { [DELETED]: 0 };
    for (const column of table.writable) {
      const parent = table.parents?.[column]?.[0];
      if (column === 'account_id') v[column] = accountId;
      else if (parent) v[column] = idOf(parent);
      else if (column === 'id') v[column] = table.name === 'accounts' ? accountId : idOf(table.name);
      else if (column === 'position') v[column] = 1;
      else v[column] = `${column} 1`;
    }
    rows.set(table.name, { key: table.pk.map((column) => v[column]), v });
  }
  return rows;
}

describe.each(HUBS)('what a device may push, the hub on %s', (_name, open) => {
  let opened: OpenedHub;
  let accountId: string;
  let hubDevice: HubDevice;
  let device: HubDevice;
  let seq = 0;
  let ownSeq = 0;
  let rows: ReturnType<typeof rowsOf>;
  const push = (table: SyncedTable, v: Record<string, unknown>, from: 'device' | 'hub' = 'device') => {
    const row = rows.get(table.name)!;
    const changes = [
      {
        local_seq: from === 'hub' ? ++ownSeq : ++seq,
        table: table.name,
        pk: JSON.stringify(row.key),
        state: stamped(v),
      },
    ];
    return from === 'hub' ? opened.hub.push(hubDevice, changes, true) : opened.hub.push(device, changes);
  };

  beforeAll(async () => {
    opened = await open();
    accountId = `acct_${randomUUID()}`;
    hubDevice = await opened.hub.adopt(accountId, 'Hub');
    const pairing = await opened.hub.createPairing(accountId, 'http://hub.invalid');
    device = (await opened.hub.join(pairing.pairing_code, 'Laptop')).device;
    rows = rowsOf(accountId);
    // The business as the hub's own install brings it: a row of every table.
    for (const table of SYNCED_TABLES) {
      const v = { ...rows.get(table.name)!.v };
      for (const column of table.operator ?? []) v[column] ??= `${column} 1`;
      expect((await push(table, v, 'hub')).accepted, table.name).toBeGreaterThan(0);
    }
  });
  afterAll(async () => {
    await opened?.close();
  });

  const cases = SYNCED_TABLES.flatMap((table) => [
    ...[...table.writable, DELETED]
      .filter(
        (column) =>
          !table.pk.includes(column) && column !== 'account_id' && !(table.operator ?? []).includes(column),
      )
      .map((column) => [table.name, column, 'writable'] as const),
    ...(table.operator ?? []).map((column) => [table.name, column, 'operator'] as const),
    ...[...notSent(table)].map((column) => [table.name, column, 'not sent'] as const),
  ]);

  it.each(cases)('%s.%s (%s)', async (tableName, column, kind) => {
    const table = SYNCED_TABLES.find((t) => t.name === tableName)!;
    const parent = table.parents?.[column]?.[0];
    // A parent column may only name a row of the business; the deletion marker is set back after.
    const value = parent ? rows.get(parent)!.key[0] : column === DELETED ? 1 : `${column} 2`;
    if (kind === 'writable') {
      const result = await push(table, { [column]: value });
      // Append-only rows keep their first state, but the change is taken.
      expect(result.acknowledged).toBe(seq);
      if (!table.appendOnly) expect(result.accepted).toBeGreaterThan(0);
      if (column === DELETED) await push(table, { [column]: 0 });
      return;
    }
    await expect(push(table, { [column]: value })).rejects.toMatchObject({
      status: 403,
      code: 'column_not_writable',
      options: { param: `changes[0].state.v.${column}`, details: { table: tableName, column } },
    });
    if (kind === 'operator') {
      const held = rows.get(table.name)!.v[column] ?? `${column} 1`;
      // The value the hub holds may come along (an insert carries every column); the operator's
      // own install may change it.
      expect((await push(table, { [column]: held })).acknowledged).toBe(seq);
      expect((await push(table, { [column]: value }, 'hub')).accepted).toBe(1);
    }
  });
});
