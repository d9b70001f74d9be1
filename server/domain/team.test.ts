import { describe, expect, it } from 'vitest';
import { offsetMinutes, startOfDay, zonedToUtc } from '../../shared/time-zone';
import type { ApiError } from '../lib/errors';
import { MAX_SCHEDULE_DAYS, scheduleWindow } from './team';

describe('schedule window', () => {
  it('defaults to the Monday-to-Sunday week of today', () => {
    expect(scheduleWindow({}, '2026-11-18')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(scheduleWindow({}, '2026-11-16')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
    expect(scheduleWindow({}, '2026-11-22')).toEqual({ from: '2026-11-16', to: '2026-11-22' });
  });

  it('fills a missing end or start with a week', () => {
    expect(scheduleWindow({ from: '2026-12-30' }, '2026-11-18')).toEqual({
      from: '2026-12-30',
      to: '2027-01-05',
    });
    expect(scheduleWindow({ to: '2026-12-06' }, '2026-11-18')).toEqual({
      from: '2026-11-30',
      to: '2026-12-06',
    });
  });

  it(`allows at most ${MAX_SCHEDULE_DAYS} days and refuses an end before the start`, () => {
    expect(scheduleWindow({ from: '2026-01-01', to: '2026-03-03' }, '2026-11-18').to).toBe('2026-03-03');
    for (const bad of [
      { from: '2026-01-01', to: '2026-03-04' },
      { from: '2026-01-02', to: '2026-01-01' },
    ]) {
      try {
        scheduleWindow(bad, '2026-11-18');
        expect.unreachable();
      } catch (error) {
        expect((error as ApiError).status).toBe(400);
        expect((error as ApiError).options.param).toBe('to');
      }
    }
  });
});

describe('time zone arithmetic', () => {
  it('finds midnight in the zone on both sides of a DST change', () => {
    expect(startOfDay('2026-11-18', 'America/Toronto').toISOString()).toBe('2026-11-18T05:00:00.000Z');
    expect(startOfDay('2026-07-01', 'America/Toronto').toISOString()).toBe('2026-07-01T04:00:00.000Z');
    // The day clocks go back (1 November 2026) starts on summer time.
    expect(startOfDay('2026-11-01', 'America/Toronto').toISOString()).toBe('2026-11-01T04:00:00.000Z');
    expect(startOfDay('2026-11-18', 'Asia/Kolkata').toISOString()).toBe('2026-11-17T18:30:00.000Z');
  });

  it('converts wall times after a spring-forward with the new offset', () => {
    expect(zonedToUtc('2027-03-14', '09:00', 'America/Toronto').toISOString()).toBe(
      '2027-03-14T13:00:00.000Z',
    );
    expect(offsetMinutes(new Date('2027-03-14T06:59:00Z'), 'America/Toronto')).toBe(-300);
    expect(offsetMinutes(new Date('2027-03-14T07:00:00Z'), 'America/Toronto')).toBe(-240);
  });
});
