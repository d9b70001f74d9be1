import { describe, it } from 'vitest';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import type { HubStorage } from '../../server/sync/hub/storage';
import { startPgHubPoolForSuite } from '../helpers/postgres';
import { recordCustomerAction } from './simulation/client-actions';
import { checkInvariants } from './simulation/invariants';
import { newLedger, randomOperation } from './simulation/operations';
import { rng, World } from './simulation/world';

/**
 * The convergence simulation (docs/sync.md, "Testing"): a hub and four devices do random business
 * operations through the domain layer while the network loses, repeats and cuts requests, devices
 * crash and clocks are skewed; then everything heals, a fifth device joins from the hub's snapshot
 * and every invariant is checked on all six. A failing seed
 * is in the test's name: SYNC_SEED=<seed> npx vitest run test/sync/simulation.test.ts replays it.
 * The same seeds run with the hub's state in PostgreSQL (a database on the run's cluster), the
 * first SYNC_PG_SEEDS of them (a fifth unless set) unless one seed is replayed. A local run
 * tries 8 seeds, 2 of them again on PostgreSQL (about 2 s of CPU each): a seed's run is whole
 * (faults, restarts, the late join, every invariant), so fewer seeds see fewer random histories,
 * not less of one, and 10 runs instead of 15 keep `npm test` quick. CI (.ci/run) sets
 * SYNC_SEEDS=200, so every change still meets all of them.
 */
const SEEDS = Number(process.env.SYNC_SEEDS ?? 8);
const STEPS = Number(process.env.SYNC_STEPS ?? 60);
const only = process.env.SYNC_SEED ? [Number(process.env.SYNC_SEED)] : undefined;
const seeds = only ?? Array.from({ length: SEEDS }, (_, i) => 1000 + i);
const pgSeeds = only ?? seeds.slice(0, Number(process.env.SYNC_PG_SEEDS ?? Math.ceil(SEEDS / 5)));

/** Device clocks: on time, 30 s fast, 3 hours slow and 2 days fast. */
const SKEWS = [0, 30_000, -3 * 3_600_000, 2 * 86_400_000];

async function runSeed(seed: number, hubStorage?: () => HubStorage): Promise<void> {
  const random = rng(seed);
  const world = new World(random, hubStorage);
  const ledger = newLedger();
  try {
    await world.setUp(SKEWS);
    world.faults = { dropRequest: 0.1, dropResponse: 0.1, duplicate: 0.1, cutAfterApply: 0.5 };
    for (let step = 0; step < STEPS; step++) {
      // Now and then a day passes, so the hub's schedule extends plan horizons (recurring-work.md).
      world.advance(random.chance(0.05) ? 86_400_000 : random.int(90_000));
      const index = random.int(world.replicas.length);
      const replica = world.replicas[index]!;
      const roll = random.next();
      // A customer answers a quote on the hub's page, whatever the owner's devices are doing.
      if (random.chance(0.2)) await recordCustomerAction(world, random, ledger);
      if (roll < 0.65) {
        await randomOperation(replica, world.accountId, random, ledger);
      } else if (roll < 0.85) {
        await replica.engine.syncNow(world.accountId).catch((error) => {
          if (error.code !== 'hub_unreachable') throw error;
        });
      } else if (roll < 0.95) {
        if (index > 0) replica.partitioned = !replica.partitioned;
      } else {
        await world.restart(index);
      }
    }
    world.faults = { dropRequest: 0, dropResponse: 0, duplicate: 0, cutAfterApply: 0 };
    for (const replica of world.replicas) replica.partitioned = false;
    // Two passes: the first brings every change to the hub, the second brings the hub to everyone.
    for (let pass = 0; pass < 2; pass++) {
      for (const replica of world.replicas) await replica.engine.syncNow(world.accountId);
    }
    // A device joining the business as it now stands: its first sync reads the hub's snapshot.
    await world.addDevice('late', 0);
    await checkInvariants(world, ledger);
  } finally {
    await world.close();
  }
}

describe('sync convergence simulation', () => {
  for (const seed of seeds) {
    it(`seed ${seed}`, () => runSeed(seed), 60_000);
  }
});

describe('sync convergence simulation, the hub on PostgreSQL', () => {
  const pool = startPgHubPoolForSuite();
  for (const seed of pgSeeds) {
    it(`seed ${seed}`, () => runSeed(seed, () => pgHubStorage(pool())), 60_000);
  }
});
