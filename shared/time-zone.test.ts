import { describe, expect, it } from 'vitest';
import {
  dateInZone,
  isKnownTimeZone,
  offsetMinutes,
  timeZoneNames,
  wallTime,
  zoneAbbreviation,
  zoneDatabaseVersion,
  zonedToUtc,
} from './time-zone';
import { zoneSubset } from './zone-database';

const at = (iso: string) => new Date(iso);
const utc = (date: string, time: string, zone: string) => zonedToUtc(date, time, zone).toISOString();

describe('bundled zone database', () => {
  it('is a 2026 release or newer and lists zones on both sides of UTC', () => {
    expect(zoneDatabaseVersion() >= '2026a').toBe(true);
    for (const zone of ['UTC', 'America/Vancouver', 'Asia/Kathmandu', 'Australia/Sydney']) {
      expect(timeZoneNames()).toContain(zone);
    }
    expect(isKnownTimeZone('Canada/Pacific')).toBe(true);
    expect(isKnownTimeZone('XYZ')).toBe(false);
  });

  it("gives one zone's part of the table, through its alias too", () => {
    const alias = zoneSubset('Canada/Pacific');
    expect(alias.zones).toEqual([expect.stringMatching(/^America\/Vancouver\|/)]);
    expect(alias.links).toEqual(['America/Vancouver|Canada/Pacific']);
    expect(zoneSubset('America/Vancouver').links).toEqual([]);
    expect(() => zoneSubset('Mars/Olympus')).toThrow(RangeError);
  });

  it("knows British Columbia's permanent daylight time, whatever the platform's Intl data says", () => {
    expect(offsetMinutes(at('2026-07-15T12:00:00Z'), 'America/Vancouver')).toBe(-420);
    expect(offsetMinutes(at('2026-11-27T12:00:00Z'), 'America/Vancouver')).toBe(-420);
    expect(zoneAbbreviation(at('2026-11-27T12:00:00Z'), 'America/Vancouver')).toBe('MST');
    // Seattle keeps falling back: the same wall clock is an hour later in UTC there.
    expect(offsetMinutes(at('2026-11-27T12:00:00Z'), 'America/Los_Angeles')).toBe(-480);
    expect(utc('2026-11-27', '00:30', 'America/Vancouver')).toBe('2026-11-27T07:30:00.000Z');
    expect(dateInZone(at('2026-11-27T07:30:00Z'), 'America/Vancouver')).toBe('2026-11-27');
  });
});

describe('wall-clock arithmetic', () => {
  it('reads the wall clock west and east of UTC, with fractional offsets', () => {
    expect(wallTime(at('2026-01-15T03:15:00Z'), 'America/Toronto')).toMatchObject({ day: 14, hour: 22 });
    expect(wallTime(at('2026-01-15T13:15:00Z'), 'Australia/Sydney')).toMatchObject({ day: 16, hour: 0 });
    expect(wallTime(at('2026-01-15T18:30:00Z'), 'Asia/Kathmandu')).toMatchObject({
      day: 16,
      hour: 0,
      minute: 15,
    });
    expect(offsetMinutes(at('2026-01-15T00:00:00Z'), 'UTC')).toBe(0);
  });

  it('follows daylight-saving changes in both hemispheres', () => {
    // New York springs forward at 07:00Z on 8 March 2026 and falls back at 06:00Z on 1 November.
    expect(offsetMinutes(at('2026-03-08T06:59:00Z'), 'America/New_York')).toBe(-300);
    expect(offsetMinutes(at('2026-03-08T07:00:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(at('2026-11-01T05:59:00Z'), 'America/New_York')).toBe(-240);
    expect(offsetMinutes(at('2026-11-01T06:00:00Z'), 'America/New_York')).toBe(-300);
    // Sydney falls back on 5 April 2026 (03:00 AEDT → 02:00 AEST) and springs forward on 4 October.
    expect(offsetMinutes(at('2026-04-04T15:59:00Z'), 'Australia/Sydney')).toBe(660);
    expect(offsetMinutes(at('2026-04-04T16:00:00Z'), 'Australia/Sydney')).toBe(600);
    expect(offsetMinutes(at('2026-10-03T16:00:00Z'), 'Australia/Sydney')).toBe(660);
    expect(utc('2026-07-01', '09:00', 'Europe/Berlin')).toBe('2026-07-01T07:00:00.000Z');
    expect(utc('2026-12-01', '09:00', 'Europe/Berlin')).toBe('2026-12-01T08:00:00.000Z');
  });

  it('takes the earlier of a repeated time and moves a skipped time forward', () => {
    expect(utc('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(utc('2026-03-08', '02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
    expect(wallTime(at('2026-03-08T07:30:00Z'), 'America/New_York')).toMatchObject({ hour: 3, minute: 30 });
    expect(utc('2026-04-05', '02:30', 'Australia/Sydney')).toBe('2026-04-04T15:30:00.000Z');
    expect(utc('2026-10-04', '02:30', 'Australia/Sydney')).toBe('2026-10-03T16:30:00.000Z');
  });
});
