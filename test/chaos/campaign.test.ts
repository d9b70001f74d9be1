import { expect, it } from 'vitest';
import { runCampaign } from './campaign';

/**
 * The fault campaign, briefly (`npm run chaos -- --minutes N` runs it longer): 9 s of faults by
 * default, CHAOS_MINUTES of them in CI (.ci/run, 45 s). Nine seconds is one or two rounds of faults
 * (the first always injects one, besides the cut-off device's long partition) with the four
 * writers sending throughout; the writers are most of the CPU that grows with the minutes, and
 * the process starts and final checks cost the same at any length. Real processes on loopback; the
 * limit is for a loaded two-core machine, where each start takes tens of seconds.
 */
it('a hub and three devices under kill -9, partitions and skewed clocks keep every invariant', async () => {
  const seed = Number(process.env.CHAOS_SEED ?? 1);
  const minutes = Number(process.env.CHAOS_MINUTES ?? 0.15);
  const summary = await runCampaign({ minutes, seed });
  expect(summary.writes.acknowledged, `seed ${seed}`).toBeGreaterThan(0);
  expect(summary.events.expected, `seed ${seed}`).toBeGreaterThan(0);
  const injected = Object.keys(summary.faults).filter((fault) => fault !== 'long_partition');
  expect(injected.length, JSON.stringify(summary.faults)).toBeGreaterThan(0);
  expect(summary.violations, JSON.stringify(summary, null, 2)).toEqual([]);
  expect(summary.checks).toMatchObject({
    acknowledged_writes: 'passed',
    divergent_rows: 'passed',
    server_errors: 'passed',
    events: 'passed',
    decisions: 'passed',
  });
}, 1_800_000);
