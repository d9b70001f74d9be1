/**
 * Where the zone database's data comes from. The server and the tests have it at once; the UI's build
 * puts renderer/lib/zone-data.ts in this module's place, which loads it after the first screen.
 */
import data from './time-zone-data.json' with { type: 'json' };

export type ZoneData = typeof data;

export function zoneData(): ZoneData {
  return data;
}
