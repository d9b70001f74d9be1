import { describe, expect, it } from 'vitest';
import { movedSchedule } from '../../renderer/screens/week-move';

describe('moving a job to another day', () => {
  it('keeps the wall-clock start and the length across a clock change', () => {
    // Friday 30 October 2026, 09:00–11:00 in Toronto (EDT), moved to Monday 2 November (EST).
    const job = { scheduled_start: '2026-10-30T13:00:00Z', scheduled_end: '2026-10-30T15:00:00Z' };
    expect(movedSchedule(job, '2026-11-02', 'America/Toronto')).toEqual({
      scheduled_start: '2026-11-02T14:00:00Z',
      scheduled_end: '2026-11-02T16:00:00Z',
    });
  });

  it('starts an unscheduled job at 09:00 that day, east of UTC too', () => {
    const job = { scheduled_start: null, scheduled_end: null };
    expect(movedSchedule(job, '2026-12-01', 'Australia/Sydney')).toEqual({
      scheduled_start: '2026-11-30T22:00:00Z',
      scheduled_end: null,
    });
  });
});
