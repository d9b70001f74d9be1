import { describe, expect, it } from 'vitest';
import { buckets } from './analytics';
import { compare } from './benchmark';
import { addMonths, checkRange, monthEnd, offsetSegments, period, weekStart } from './periods';

describe('periods', () => {
  it('turns local days into UTC instants across a DST change', () => {
    // Toronto leaves daylight time on 2026-11-01: October days start at 04:00Z, November days at 05:00Z.
    expect(period('2026-10-01', '2026-10-31', 'America/Toronto')).toEqual({
      from: '2026-10-01',
      to: '2026-10-31',
      start: '2026-10-01T04:00:00Z',
      end: '2026-11-01T04:00:00Z',
    });
    expect(period('2026-11-02', '2026-11-02', 'America/Toronto').start).toBe('2026-11-02T05:00:00Z');
  });

  it('does month and week arithmetic on calendar dates', () => {
    expect(addMonths('2026-11-15', -11)).toBe('2025-12-01');
    expect(addMonths('2026-12-31', 1)).toBe('2027-01-01');
    expect(monthEnd('2028-02-10')).toBe('2028-02-29');
    expect(weekStart('2026-11-15')).toBe('2026-11-09');
    expect(weekStart('2026-11-09')).toBe('2026-11-09');
  });

  it('pins offset changes to the minute', () => {
    const segments = offsetSegments(
      'America/Toronto',
      new Date('2026-10-01T00:00:00Z'),
      new Date('2026-12-01T00:00:00Z'),
    );
    expect(segments.map((s) => [new Date(s.from).toISOString(), s.offset])).toEqual([
      ['2026-10-01T00:00:00.000Z', -240],
      ['2026-11-01T06:00:00.000Z', -300],
    ]);
  });

  it('refuses a backwards or too long range with param to', () => {
    expect(() => checkRange('2026-01-02', '2026-01-01', 366)).toThrow(/before from/);
    expect(() => checkRange('2026-01-01', '2027-01-01', 365)).toThrow(/at most 365 days/);
    expect(() => checkRange('2026-01-01', '2026-12-31', 365)).not.toThrow();
  });
});

describe('analytics buckets', () => {
  it('clips the first and last bucket to the period', () => {
    expect(buckets('month', '2026-01-15', '2026-03-10')).toEqual([
      { start: '2026-01-15', end: '2026-01-31' },
      { start: '2026-02-01', end: '2026-02-28' },
      { start: '2026-03-01', end: '2026-03-10' },
    ]);
    expect(buckets('week', '2026-11-11', '2026-11-23')).toEqual([
      { start: '2026-11-11', end: '2026-11-15' },
      { start: '2026-11-16', end: '2026-11-22' },
      { start: '2026-11-23', end: '2026-11-23' },
    ]);
  });
});

describe('benchmark comparison', () => {
  it('averages only the baseline periods that have data', () => {
    const figure = compare('average_invoice', [null, null, 100, null, 80, null, 120]);
    expect(figure).toMatchObject({ value: 120, baseline: 90, change: { absolute: 30, percent: 33.3 } });
    expect(figure.direction).toBe('better');
  });

  it('reads lower days to pay as better', () => {
    expect(compare('days_to_pay', [30, 30, 30, 30, 30, 30, 20]).direction).toBe('better');
    expect(compare('days_to_pay', [10, 10, 10, 10, 10, 10, 20]).direction).toBe('worse');
  });

  it('has no baseline, change or direction without history', () => {
    expect(compare('average_rating', [null, null, null, null, null, null, 4.5])).toMatchObject({
      value: 4.5,
      baseline: null,
      change: null,
      direction: null,
    });
  });
});
