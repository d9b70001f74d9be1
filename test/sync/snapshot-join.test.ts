import { describe, expect, it } from 'vitest';
import { SYNCED_TABLES } from '../../server/sync/tables';
import { newLedger, randomOperation } from './simulation/operations';
import { type Replica, rng, World } from './simulation/world';

/**
 * A first sync from the hub's snapshot leaves a device exactly as the paged pull from 0 does:
 * after a random history (merged customers, deletions, edits from skewed clocks, payments on two
 * devices), one device joins from the snapshot and another through a hub that serves none, and
 * everything sync keeps is compared: the business rows with their derived figures, the per-column
 * clocks, aliases, conflicts, queued webhook deliveries, overview rollups, payments' tax shares and
 * the cursor.
 */
const SEEDS = Array.from({ length: 10 }, (_, i) => 4002 + i);
const STEPS = 80;

async function stateOf(replica: Replica, accountId: string) {
  const sqlite = replica.database.sqlite;
  const all = (text: string, ...params: unknown[]) => sqlite.prepare(text).all(...params);
  const tables = Object.fromEntries(
    SYNCED_TABLES.map((table) => [
      table.name,
      all(
        `SELECT * FROM ${table.name} R WHERE ${table.account('R')} = ? ORDER BY ${table.pk.join(', ')}`,
        accountId,
      ),
    ]),
  );
  return {
    tables,
    clocks: all('SELECT tbl, pk, clocks FROM sync_clocks ORDER BY tbl, pk'),
    aliases: all('SELECT tbl, from_id, to_id FROM sync_aliases ORDER BY tbl, from_id'),
    decisions: all(
      'SELECT id, kind, record_type, record_id, message, status, resolved_at FROM decisions ORDER BY id',
    ),
    deferred: all('SELECT tbl, pk, state FROM sync_deferred ORDER BY tbl, pk'),
    deliveries: all('SELECT endpoint_id, event_id FROM webhook_deliveries ORDER BY endpoint_id, event_id'),
    slots: all('SELECT * FROM overview_slots ORDER BY account_id, slot'),
    days: all('SELECT * FROM overview_days ORDER BY account_id, day'),
    figures: all('SELECT * FROM customer_figures ORDER BY customer_id'),
    taxShares: all('SELECT * FROM payment_tax_shares ORDER BY payment_id, position'),
    cursor: all('SELECT cursor FROM sync_settings WHERE account_id = ?', accountId),
    // The load drops and recreates indexes and capture triggers: every one must be back.
    schema: all(`SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name`),
  };
}

describe('a first sync from the snapshot', () => {
  const seen = { aliases: 0, tombstones: 0, clocks: 0, conflicts: 0 };

  for (const seed of SEEDS) {
    it(`ends as the paged pull does (seed ${seed})`, async () => {
      const random = rng(seed);
      const world = new World(random);
      const ledger = newLedger();
      try {
        await world.setUp([0, 30_000, 20 * 60_000]);
        for (let step = 0; step < STEPS; step++) {
          world.advance(random.int(90_000));
          const replica = world.replicas[random.int(world.replicas.length)]!;
          if (random.chance(0.75)) await randomOperation(replica, world.accountId, random, ledger);
          else await replica.engine.syncNow(world.accountId);
        }
        for (const replica of world.replicas) await replica.engine.syncNow(world.accountId);

        const snapshot = await world.addDevice('snapshot', 0);
        const paged = await world.addDevice('paged', 0, { snapshot: false });
        const fromSnapshot = await stateOf(snapshot, world.accountId);
        expect(fromSnapshot).toEqual(await stateOf(paged, world.accountId));

        const hubRows = world.hub.database.sqlite
          .prepare('SELECT tbl, vals FROM hub_rows WHERE account_id = ?')
          .all(world.accountId) as Array<{ tbl: string; vals: string }>;
        seen.aliases += fromSnapshot.aliases.length;
        seen.tombstones += hubRows.filter((r) => JSON.parse(r.vals)._deleted === 1).length;
        seen.clocks += fromSnapshot.clocks.length;
        seen.conflicts += fromSnapshot.decisions.length;
      } finally {
        await world.close();
      }
    }, 60_000);
  }

  it('met merged records, deletions, clocks and conflicts in those histories', () => {
    expect(seen.aliases).toBeGreaterThan(0);
    expect(seen.tombstones).toBeGreaterThan(0);
    expect(seen.clocks).toBeGreaterThan(0);
    expect(seen.conflicts).toBeGreaterThan(0);
  });
});
