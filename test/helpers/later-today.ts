import { defaultConfig } from '../../shared/schemas/config';
import { addDays, dateInZone, startOfDay } from '../../shared/time-zone';

/**
 * A visit time that is still "today" (and so this week) in a new business's zone at any hour a
 * test runs: an hour from now, or, late in the evening there, a few minutes before its midnight.
 * Plain "now + 1 h" fell on tomorrow every night between 04:00 and 05:00 UTC (Toronto's 23:00).
 */
export function laterToday(now = new Date()): Date {
  const zone = defaultConfig('').timezone;
  const today = dateInZone(now, zone);
  const inAnHour = new Date(now.getTime() + 3_600_000);
  if (dateInZone(inAnHour, zone) === today) return inAnHour;
  return new Date(startOfDay(addDays(today, 1), zone).getTime() - 5 * 60_000);
}
