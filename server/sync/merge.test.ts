import { describe, expect, it } from 'vitest';
import { Hlc } from './hlc';
import { mergeStates, type RowState } from './merge';
import { syncedTable } from './tables';

const jobs = syncedTable('jobs')!;
const customers = syncedTable('customers')!;

function state(v: Record<string, unknown>, clock: string): RowState {
  return { v, c: Object.fromEntries(Object.keys(v).map((k) => [k, clock])) };
}

describe('merge rules', () => {
  it('keeps the later value per column, whatever order the changes arrive in', () => {
    const base = state({ name: 'Ada', phone: '1' }, '');
    const a = state({ name: 'Ada L.' }, '002');
    const b = state({ phone: '2' }, '001');
    const ab = mergeStates(customers, mergeStates(customers, base, a).state, b).state;
    const ba = mergeStates(customers, mergeStates(customers, base, b).state, a).state;
    expect(ab.v).toEqual({ name: 'Ada L.', phone: '2' });
    expect(ba).toEqual(ab);
  });

  it('ranks statuses before clocks: a completed job stays completed over a later cancel', () => {
    const completed = state({ status: 'completed' }, '001');
    const cancelled = state({ status: 'cancelled' }, '009');
    expect(mergeStates(jobs, completed, cancelled).state.v.status).toBe('completed');
    expect(mergeStates(jobs, cancelled, completed).state.v.status).toBe('completed');
  });

  it('orders statuses of one rank by clock, so rescheduling back and forth works', () => {
    const scheduled = state({ status: 'scheduled' }, '002');
    const unscheduled = state({ status: 'unscheduled' }, '003');
    expect(mergeStates(jobs, scheduled, unscheduled).state.v.status).toBe('unscheduled');
  });

  it('breaks a tie of equal clocks by the value, the same way everywhere', () => {
    const a = state({ name: 'A' }, '005');
    const b = state({ name: 'B' }, '005');
    expect(mergeStates(customers, a, b).state.v.name).toBe(mergeStates(customers, b, a).state.v.name);
  });

  it('keeps the outcome of the status that won: an action applied here and refused later elsewhere reads applied', () => {
    const actions = syncedTable('client_actions')!;
    const applied = state({ status: 'applied', outcome: 'Approved by Maya Chen.', applied_at: 'a' }, '001');
    const refused = state(
      { status: 'refused', outcome: 'This quote was already declined.', applied_at: 'r' },
      '009',
    );
    for (const merged of [mergeStates(actions, applied, refused), mergeStates(actions, refused, applied)]) {
      expect(merged.state.v).toEqual(applied.v);
    }
    const handled = state({ status: 'handled', outcome: 'Called them back.' }, '005');
    expect(mergeStates(actions, mergeStates(actions, refused, handled).state, applied).state.v).toEqual({
      status: 'handled',
      outcome: 'Called them back.',
      applied_at: 'r',
    });
  });

  it('is idempotent: merging a state into itself changes nothing', () => {
    const a = state({ name: 'A', phone: '1' }, '005');
    expect(mergeStates(customers, a, a).changed).toEqual([]);
  });
});

describe('hybrid logical clock', () => {
  it('moves forward even when the wall clock steps back, and past clocks it has seen', () => {
    const clock = new Hlc('node1');
    const first = clock.tick(1_000);
    const second = clock.tick(500);
    expect(second > first).toBe(true);
    const remote = new Hlc('node2').tick(5_000);
    clock.observe(remote);
    expect(clock.tick(2_000) > remote).toBe(true);
  });
});
