/**
 * The UI's source of shared/zone-data.ts (vite.config.ts puts it in that module's place). The whole
 * zone table is ~660 KB of text, and every screen but the business settings shows dates in one zone
 * only: the session brings that zone's rules, and the table is a chunk of its own, loaded by the
 * screens that list zones.
 */
import type { ZoneData } from '../../shared/zone-data';

let whole: ZoneData | undefined;
let loaded: ZoneData | undefined;

export function zoneData(): ZoneData {
  if (!loaded) throw new Error('No time-zone rules yet: the session brings them (setSessionZone).');
  return loaded;
}

/** The session's zone, until the whole table is loaded (which holds it too). */
export function setSessionZone(zone: ZoneData): void {
  if (!whole) loaded = zone;
}

export async function loadZoneData(): Promise<void> {
  whole ??= (await import('../../shared/time-zone-data.json')).default;
  loaded = whole;
}
