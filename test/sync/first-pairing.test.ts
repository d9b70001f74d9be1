import { copyFileSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createAccount } from '../../server/domain/accounts';
import { SyncEngine } from '../../server/sync/device/engine';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import { newLedger, randomOperation } from './simulation/operations';
import { type Replica, rng, World } from './simulation/world';

/**
 * The first pairing of an install whose hub lives in its own file loads the business into the hub
 * in bulk; the state it leaves is the one the outbox and push leave (what a hub on PostgreSQL
 * still does): the same resolved rows, clocks and numbers, the counter and the hub's own cursor.
 */
function hubState(replica: Replica, accountId: string) {
  const sqlite = replica.database.sqlite;
  const rows = sqlite
    .prepare('SELECT tbl, pk, seq, vals, clocks, natural_key FROM hub_rows WHERE account_id = ? ORDER BY seq')
    .all(accountId) as Array<{ vals: string; clocks: string }>;
  return {
    rows: rows.map((r) => ({ ...r, vals: JSON.parse(r.vals), clocks: JSON.parse(r.clocks) })),
    business: sqlite.prepare('SELECT last_seq FROM hub_businesses WHERE account_id = ?').all(accountId),
    settings: sqlite.prepare('SELECT role, cursor FROM sync_settings WHERE account_id = ?').all(accountId),
    outbox: sqlite.prepare('SELECT count(*) AS n FROM sync_outbox').get(),
    clocks: sqlite.prepare('SELECT tbl, pk, clocks FROM sync_clocks ORDER BY tbl, pk').all(),
    series: sqlite
      .prepare('SELECT series, next_value FROM hub_number_series WHERE account_id = ? ORDER BY series')
      .all(accountId),
  };
}

/** A replica of its own in `world` holding one new business, as an install before it syncs. */
async function installWithBusiness(world: World, name: string, businessName: string) {
  const replica = await world.open(name, 0);
  world.replicas.push(replica);
  const { id } = await createAccount(replica.ctx, { businessName, plan: 'platform', apiPlan: 'lite' });
  return { replica, accountId: id };
}

describe('the first pairing', () => {
  it('loads the business into the hub in bulk, as the push would', async () => {
    const random = rng(77);
    const world = new World(random);
    try {
      const { replica: bulk, accountId } = await installWithBusiness(world, 'bulk', 'Before Sync');
      const ledger = newLedger();
      for (let i = 0; i < 200; i++) {
        world.advance(random.int(90_000));
        await randomOperation(bulk, accountId, random, ledger);
      }

      bulk.database.sqlite.pragma('wal_checkpoint(TRUNCATE)');
      const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-first-pairing-'));
      copyFileSync(path.join(bulk.dir, 'shopdesk.sqlite'), path.join(dir, 'shopdesk.sqlite'));
      const pushed = await world.open('pushed', 0, dir);
      world.replicas.push(pushed);
      // The same storage, given explicitly: the engine then treats it as any other and pushes.
      pushed.engine = new SyncEngine({
        db: pushed.database.db,
        sqlite: pushed.database.sqlite,
        capture: pushed.database.capture,
        clock: pushed.clock,
        connectivity: pushed.ctx.connectivity,
        signals: pushed.ctx.signals,
        hubStorage: sqliteHubStorage(pushed.database.db, pushed.database.sqlite),
      });

      await bulk.engine.pair(accountId, { hubUrl: 'http://hub.invalid' });
      await pushed.engine.pair(accountId, { hubUrl: 'http://hub.invalid' });
      const loaded = hubState(bulk, accountId);
      expect(loaded.rows.length).toBeGreaterThan(100);
      expect(loaded.business).toEqual([{ last_seq: loaded.rows.length }]);
      expect(loaded).toEqual(hubState(pushed, accountId));
    } finally {
      await world.close();
    }
  }, 60_000);

  it('makes one hub when two processes on the folder pair at once', async () => {
    const world = new World(rng(78));
    try {
      const { replica: server, accountId } = await installWithBusiness(world, 'server', 'Two At Once');
      // A second connection to the same file, as `sync pair` from the CLI beside the running server.
      const cli = await world.open('cli', 0, server.dir);
      world.replicas.push(cli);

      const pairings = await Promise.all([
        server.engine.pair(accountId, { name: 'Laptop', hubUrl: 'http://hub.invalid' }),
        cli.engine.pair(accountId, { name: 'Van', hubUrl: 'http://hub.invalid' }),
        server.engine.pair(accountId, { name: 'Tablet', hubUrl: 'http://hub.invalid' }),
      ]);

      expect(new Set(pairings.map((p) => p.pairing_code)).size).toBe(3);
      const sqlite = server.database.sqlite;
      expect(sqlite.prepare('SELECT role FROM sync_settings WHERE account_id = ?').all(accountId)).toEqual([
        { role: 'hub' },
      ]);
      const devices = sqlite
        .prepare('SELECT name, revoked_at FROM hub_devices WHERE account_id = ?')
        .all(accountId);
      expect(devices).toEqual([{ name: 'Hub', revoked_at: null }]);
      const status = await cli.engine.status(accountId);
      expect(status.devices?.map((d) => d.role)).toEqual(['hub']);
    } finally {
      await world.close();
    }
  }, 60_000);
});
