/**
 * The UI's source of shared/zone-data.ts (vite.config.ts puts it in that module's place): the zone
 * table is ~660 KB of text that no screen needs before the session says which zone the business is
 * in, so it is a chunk of its own, loaded beside the session rather than inside the first script.
 */
import type { ZoneData } from '../../shared/zone-data';

let loaded: ZoneData | undefined;

export function zoneData(): ZoneData {
  if (!loaded) throw new Error('The time-zone table is not loaded yet: await loadZoneData() first.');
  return loaded;
}

export async function loadZoneData(): Promise<void> {
  loaded ??= (await import('../../shared/time-zone-data.json')).default;
}
