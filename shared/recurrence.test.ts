import { describe, expect, it } from 'vitest';
import {
  describeRule,
  lastRuleDate,
  occurrences,
  type RecurrenceRule,
  rruleText,
  ruleDates,
} from './recurrence';

const rule = (over: Partial<RecurrenceRule>): RecurrenceRule => ({
  frequency: 'weekly',
  interval: 1,
  weekdays: [],
  month_day: null,
  start_date: '2026-12-01',
  start_time: '09:00',
  end_time: '11:00',
  until: null,
  count: null,
  holidays: [],
  holiday_rule: 'skip',
  ...over,
});

const starts = (r: RecurrenceRule, zone: string, from: string, to: string) =>
  occurrences(r, zone, from, to).map((o) => o.start);

describe('recurrence across daylight-saving changes: 9:00 stays 9:00 local', () => {
  it('America/Vancouver: the March 2026 change, and no change in November 2026 (permanent -07:00)', () => {
    const mondays = rule({ weekdays: ['MO'], start_date: '2026-03-02' });
    expect(starts(mondays, 'America/Vancouver', '2026-03-02', '2026-03-09')).toEqual([
      '2026-03-02T17:00:00Z', // PST, -08:00
      '2026-03-09T16:00:00Z', // after 8 March, -07:00
    ]);
    expect(starts(mondays, 'America/Vancouver', '2026-10-26', '2026-11-02')).toEqual([
      '2026-10-26T16:00:00Z',
      '2026-11-02T16:00:00Z',
    ]);
  });

  it('Europe/London: spring forward and fall back in 2027', () => {
    const fridays = rule({ weekdays: ['FR'], start_date: '2027-03-01' });
    expect(starts(fridays, 'Europe/London', '2027-03-26', '2027-04-02')).toEqual([
      '2027-03-26T09:00:00Z',
      '2027-04-02T08:00:00Z',
    ]);
    expect(starts(fridays, 'Europe/London', '2027-10-29', '2027-11-05')).toEqual([
      '2027-10-29T08:00:00Z',
      '2027-11-05T09:00:00Z',
    ]);
  });

  it('Australia/Sydney (east of UTC): the April 2027 change, dates stay local dates', () => {
    const daily = rule({
      frequency: 'daily',
      start_date: '2027-04-01',
      start_time: '08:00',
      end_time: '09:00',
    });
    const visits = occurrences(daily, 'Australia/Sydney', '2027-04-03', '2027-04-05');
    expect(visits.map((v) => [v.date, v.start, v.end])).toEqual([
      ['2027-04-03', '2027-04-02T21:00:00Z', '2027-04-02T22:00:00Z'], // AEDT +11:00
      ['2027-04-04', '2027-04-03T22:00:00Z', '2027-04-03T23:00:00Z'], // AEST +10:00
      ['2027-04-05', '2027-04-04T22:00:00Z', '2027-04-04T23:00:00Z'],
    ]);
  });

  it('a time that does not exist on the spring-forward night moves forward by the gap', () => {
    const early = rule({
      frequency: 'daily',
      start_date: '2027-03-27',
      start_time: '01:30',
      end_time: '03:00',
      count: 3,
    });
    expect(
      occurrences(early, 'Europe/London', '2027-03-27', '2027-03-29').map((o) => [o.start, o.end]),
    ).toEqual([
      ['2027-03-27T01:30:00Z', '2027-03-27T03:00:00Z'],
      // 01:00–02:00 does not exist that night: 01:30 is read as 02:30 BST; 03:00 BST is 02:00Z.
      ['2027-03-28T01:30:00Z', '2027-03-28T02:00:00Z'],
      ['2027-03-29T00:30:00Z', '2027-03-29T02:00:00Z'],
    ]);
  });
});

describe('month ends (RFC 5545)', () => {
  it('the 31st skips months without one', () => {
    const r = rule({ frequency: 'monthly', month_day: 31, start_date: '2027-01-31' });
    expect(ruleDates(r, '2027-01-01', '2027-12-31')).toEqual([
      '2027-01-31',
      '2027-03-31',
      '2027-05-31',
      '2027-07-31',
      '2027-08-31',
      '2027-10-31',
      '2027-12-31',
    ]);
  });

  it('"last day of the month" (-1) falls on every month end, February 29 in a leap year', () => {
    const r = rule({ frequency: 'monthly', month_day: -1, start_date: '2027-11-01' });
    expect(ruleDates(r, '2027-11-01', '2028-04-30')).toEqual([
      '2027-11-30',
      '2027-12-31',
      '2028-01-31',
      '2028-02-29',
      '2028-03-31',
      '2028-04-30',
    ]);
  });

  it('the 29th skips February except in a leap year', () => {
    const r = rule({ frequency: 'monthly', month_day: 29, start_date: '2026-12-29' });
    expect(ruleDates(r, '2026-12-01', '2028-03-31').filter((d) => d.slice(5, 7) === '02')).toEqual([
      '2028-02-29',
    ]);
    expect(ruleDates(r, '2027-01-01', '2027-03-31')).toEqual(['2027-01-29', '2027-03-29']);
  });

  it('the month day defaults to the start date', () => {
    expect(
      ruleDates(rule({ frequency: 'monthly', start_date: '2026-12-15' }), '2026-12-01', '2027-02-28'),
    ).toEqual(['2026-12-15', '2027-01-15', '2027-02-15']);
  });
});

describe('ends, intervals and holidays', () => {
  it('every second Tuesday, with a count or an inclusive until', () => {
    const base = rule({ interval: 2, weekdays: ['TU'], start_date: '2026-12-01' });
    expect(ruleDates({ ...base, count: 3 }, '2026-01-01', '2027-12-31')).toEqual([
      '2026-12-01',
      '2026-12-15',
      '2026-12-29',
    ]);
    expect(ruleDates({ ...base, until: '2026-12-29' }, '2026-01-01', '2027-12-31')).toEqual([
      '2026-12-01',
      '2026-12-15',
      '2026-12-29',
    ]);
    expect(lastRuleDate({ ...base, count: 3 })).toBe('2026-12-29');
    expect(lastRuleDate(base)).toBeNull();
  });

  it('counts occurrences from the start date even when asked for a later window', () => {
    const r = rule({ frequency: 'daily', start_date: '2026-12-01', count: 5 });
    expect(ruleDates(r, '2026-12-04', '2026-12-31')).toEqual(['2026-12-04', '2026-12-05']);
  });

  it('a start date off the rule is not itself a visit (first one is the next match)', () => {
    expect(
      ruleDates(rule({ weekdays: ['TU'], start_date: '2026-12-02' }), '2026-12-01', '2026-12-10'),
    ).toEqual(['2026-12-08']);
  });

  it('skips holidays, or moves them to the next day that is not one', () => {
    const fridays = rule({
      weekdays: ['FR'],
      start_date: '2026-12-18',
      holidays: ['2026-12-25', '2026-12-26'],
    });
    expect(occurrences(fridays, 'Europe/London', '2026-12-18', '2027-01-01').map((o) => o.date)).toEqual([
      '2026-12-18',
      '2027-01-01',
    ]);
    const moved = occurrences(
      { ...fridays, holiday_rule: 'move' },
      'Europe/London',
      '2026-12-18',
      '2027-01-01',
    );
    expect(moved.map((o) => [o.occurrence, o.date, o.moved])).toEqual([
      ['2026-12-18', '2026-12-18', false],
      ['2026-12-25', '2026-12-27', true],
      ['2027-01-01', '2027-01-01', false],
    ]);
    expect(moved[1]!.start).toBe('2026-12-27T09:00:00Z');
  });

  it('a skipped holiday still counts towards COUNT (it is an excluded occurrence)', () => {
    const r = rule({ weekdays: ['FR'], start_date: '2026-12-18', count: 3, holidays: ['2026-12-25'] });
    expect(occurrences(r, 'UTC', '2026-12-01', '2027-12-31').map((o) => o.date)).toEqual([
      '2026-12-18',
      '2027-01-01',
    ]);
  });
});

describe('the rule in words and as RRULE', () => {
  it('reads as a person would say it', () => {
    expect(describeRule(rule({ interval: 2, weekdays: ['TU'], until: '2027-06-30' }))).toBe(
      'Every 2 weeks on Tuesday, 9:00–11:00, until 30 Jun 2027',
    );
    expect(describeRule(rule({ frequency: 'monthly', month_day: -1, count: 12, start_time: '08:30' }))).toBe(
      'Every month on the last day, 8:30–11:00, 12 times',
    );
    expect(describeRule(rule({ frequency: 'monthly', month_day: 31 }))).toBe(
      'Every month on the 31st (months without one are skipped), 9:00–11:00',
    );
    expect(
      describeRule(rule({ weekdays: ['MO', 'WE', 'FR'], holidays: ['2026-12-25'], holiday_rule: 'move' })),
    ).toBe('Every week on Monday, Wednesday and Friday, 9:00–11:00, 1 holiday moved to the next day');
    expect(describeRule(rule({ frequency: 'daily', interval: 3 }))).toBe('Every 3 days, 9:00–11:00');
  });

  it('gives the RFC 5545 text', () => {
    expect(rruleText(rule({ interval: 2, weekdays: ['TU'], until: '2027-06-30' }))).toBe(
      'DTSTART:20261201T000000Z\nRRULE:FREQ=WEEKLY;INTERVAL=2;WKST=MO;BYDAY=TU;UNTIL=20270630T000000Z',
    );
  });
});
