import { afterEach, describe, expect, it } from 'vitest';
import { completeJob } from '../../server/domain/jobs';
import { runRecurringWork } from '../../server/domain/plan-runner';
import { visitId } from '../../server/domain/plan-visits';
import { createPlan, updatePlan } from '../../server/domain/service-plans';
import { exportOf } from './simulation/invariants';
import { type Replica, rng, World } from './simulation/world';

/**
 * Service plans across devices (docs/recurring-work.md, "Generated once"): a visit two installs
 * generate while apart is one row after sync (its id derives from plan and date), with one number;
 * only the hub extends horizons; a visit completed on two devices is billed once.
 */

let world: World | undefined;
afterEach(async () => {
  await world?.close();
  world = undefined;
});

const plan = {
  customer_email: 'ada@example.com',
  customer_name: 'Ada',
  title: 'Garden care',
  frequency: 'weekly' as const,
  interval: 2,
  weekdays: ['TU' as const],
  start_date: '2026-12-01',
  start_time: '09:00',
  end_time: '11:00',
  price: 80,
  assignees: ['Sam'],
  billing: 'per_visit' as const,
  horizon_weeks: 4,
};

const DAY = 86_400_000;

async function syncAll(w: World) {
  for (let pass = 0; pass < 2; pass++) for (const r of w.replicas) await r.engine.syncNow(w.accountId);
}

async function visitsOf(replica: Replica, planId: string) {
  return replica.ctx.db
    .selectFrom('jobs')
    .select(['id', 'number', 'plan_occurrence', 'status', 'plan_invoice_id'])
    .where('plan_id', '=', planId)
    .orderBy('plan_occurrence')
    .execute();
}

describe('service plans across devices', () => {
  it('a visit made on the hub and on a device while apart is one row with one number', async () => {
    world = new World(rng(1));
    await world.setUp([0, 0]);
    const [hub, d1, d2] = world.replicas as [Replica, Replica, Replica];

    // 22 Nov 2026: the device makes the plan; visits up to 20 Dec exist at once, on the device.
    const made = await createPlan(d1.ctx, world.accountId, plan);
    const first = await visitsOf(d1, made.id);
    expect(first.map((v) => v.plan_occurrence)).toEqual(['2026-12-01', '2026-12-15']);
    await syncAll(world);
    expect(await runRecurringWork(hub.ctx)).toMatchObject({ visits_created: 0 });
    // Devices never fill horizons: that is the hub's work.
    expect(await runRecurringWork(d1.ctx)).toMatchObject({ plans: 0 });

    // Two weeks on, while the device is cut off: the hub's schedule makes the 29 Dec visit, and the
    // owner edits the plan on the device, which makes the same visit there.
    world.advance(14 * DAY);
    d1.partitioned = true;
    expect(await runRecurringWork(hub.ctx)).toMatchObject({ visits_created: 1 });
    await updatePlan(d1.ctx, world.accountId, made.id, { notes: 'Gate code 1234' });
    const onHub = (await visitsOf(hub, made.id)).find((v) => v.plan_occurrence === '2026-12-29')!;
    const onDevice = (await visitsOf(d1, made.id)).find((v) => v.plan_occurrence === '2026-12-29')!;
    expect(onHub.id).toBe(visitId(made.id, '2026-12-29'));
    expect(onDevice.id).toBe(onHub.id);
    expect(onDevice.number).not.toBe(onHub.number);

    d1.partitioned = false;
    await syncAll(world);
    const reference = await visitsOf(hub, made.id);
    expect(reference.map((v) => v.plan_occurrence)).toEqual(['2026-12-01', '2026-12-15', '2026-12-29']);
    for (const replica of [d1, d2]) expect(await visitsOf(replica, made.id)).toEqual(reference);
    // One number survives (the later write's); the other is a gap, never a second job.
    expect([onHub.number, onDevice.number]).toContain(reference[2]!.number);
    const numbers = await hub.ctx.db.selectFrom('jobs').select('number').execute();
    expect(new Set(numbers.map((n) => n.number)).size).toBe(numbers.length);
    expect(JSON.stringify(await exportOf(d1, world.accountId))).toBe(
      JSON.stringify(await exportOf(hub, world.accountId)),
    );
    // The plan edit itself reached everyone.
    const notes = await d2.ctx.db
      .selectFrom('jobs')
      .select('notes')
      .where('id', '=', onHub.id)
      .executeTakeFirst();
    expect(notes?.notes).toBe('Gate code 1234');
  });

  it('a visit completed on two devices while apart is billed once', async () => {
    world = new World(rng(2));
    await world.setUp([0, 0]);
    const [hub, d1, d2] = world.replicas as [Replica, Replica, Replica];
    const made = await createPlan(hub.ctx, world.accountId, plan);
    await syncAll(world);
    const [visit] = await visitsOf(d1, made.id);

    world.advance(10 * DAY); // 2 December: the 1 December visit is done
    d1.partitioned = true;
    d2.partitioned = true;
    await completeJob(d1.ctx, world.accountId, visit!.id);
    world.advance(60_000);
    await completeJob(d2.ctx, world.accountId, visit!.id);
    d1.partitioned = false;
    d2.partitioned = false;
    await syncAll(world);

    for (const replica of world.replicas) {
      const invoices = await replica.ctx.db
        .selectFrom('invoices')
        .select(['id', 'number', 'total_cents'])
        .where('job_id', '=', visit!.id)
        .execute();
      expect(invoices, replica.name).toHaveLength(1);
      expect(invoices[0]!.total_cents).toBe(8000);
      const lines = await replica.ctx.db
        .selectFrom('document_lines')
        .select('description')
        .where('document_id', '=', invoices[0]!.id)
        .execute();
      expect(lines).toEqual([{ description: 'Garden care, 1 Dec 2026' }]);
    }
    expect(JSON.stringify(await exportOf(d2, world.accountId))).toBe(
      JSON.stringify(await exportOf(hub, world.accountId)),
    );
  });
});
