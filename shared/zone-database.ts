/**
 * The IANA zone database the server and the UI share, bundled as shared/time-zone-data.json
 * (written by scripts/update-time-zones.mjs). Neither side asks Intl for zone rules: Node's and
 * the browser's copies differ in age, and a rule change (British Columbia staying on daylight time
 * from November 2026) then moves a job to another hour or day on one side only.
 */
import { type ZoneData, zoneData } from './zone-data';

/** Offsets east of UTC in minutes, each in force until the matching instant (ms since epoch). */
interface Zone {
  abbreviations: string[];
  offsets: number[];
  untils: number[];
}

const DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWX';

/** moment-timezone's packed numbers: base 60, optional sign and base-60 fraction. */
function base60(text: string): number {
  const negative = text.startsWith('-');
  const [whole = '', fraction = ''] = (negative ? text.slice(1) : text).split('.');
  let value = 0;
  for (const c of whole) value = value * 60 + DIGITS.indexOf(c);
  let scale = 1;
  for (const c of fraction) {
    scale /= 60;
    value += DIGITS.indexOf(c) * scale;
  }
  return negative ? -value : value;
}

interface Tables {
  data: ZoneData;
  packedZones: Map<string, string>;
  aliases: Map<string, string>;
}

let tables: Tables | undefined;

/**
 * Indexed on first use, and again when the data changes: the UI starts with its session's one zone
 * and loads the whole table when a screen lists them (see renderer/lib/zone-data.ts).
 */
function indexed(): Tables {
  const data = zoneData();
  if (tables?.data === data) return tables;
  const packedZones = new Map<string, string>();
  for (const line of data.zones) packedZones.set(line.slice(0, line.indexOf('|')), line);
  const aliases = new Map<string, string>();
  for (const link of data.links) {
    const [a = '', b = ''] = link.split('|');
    if (packedZones.has(a)) aliases.set(b, a);
    else if (packedZones.has(b)) aliases.set(a, b);
  }
  tables = { data, packedZones, aliases };
  return tables;
}

const unpacked = new Map<string, Zone>();

function unpack(line: string): Zone {
  const [, abbrs = '', offsets = '', indices = '', untilText = ''] = line.split('|');
  const abbrList = abbrs.split(' ');
  const offsetList = offsets.split(' ').map(base60);
  const untils: number[] = [];
  let minutes = 0;
  for (const delta of untilText ? untilText.split(' ') : []) {
    minutes += base60(delta);
    untils.push(Math.round(minutes * 60_000));
  }
  const periods = [...indices].map((c) => DIGITS.indexOf(c));
  return {
    abbreviations: periods.map((i) => abbrList[i] ?? ''),
    // Packed offsets count minutes west of UTC.
    offsets: periods.map((i) => -(offsetList[i] ?? 0) || 0),
    untils: [...untils, Number.POSITIVE_INFINITY],
  };
}

/** The canonical name of a zone or of one of its aliases, or undefined for a name the database lacks. */
export function canonicalZone(name: string): string | undefined {
  const { packedZones, aliases } = indexed();
  if (packedZones.has(name)) return name;
  return aliases.get(name);
}

function zone(name: string): Zone {
  const canonical = canonicalZone(name);
  if (!canonical) throw new RangeError(`Unknown time zone: ${name}`);
  let found = unpacked.get(canonical);
  if (!found) {
    found = unpack(indexed().packedZones.get(canonical)!);
    unpacked.set(canonical, found);
  }
  return found;
}

export function isKnownTimeZone(name: string): boolean {
  return canonicalZone(name) !== undefined;
}

/** The offset (minutes east of UTC) and abbreviation in force in `timeZone` at an instant. */
export function zoneAt(instantMs: number, timeZone: string): { offset: number; abbreviation: string } {
  const { untils, offsets, abbreviations } = zone(timeZone);
  let lo = 0;
  let hi = untils.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (instantMs < untils[mid]!) hi = mid;
    else lo = mid + 1;
  }
  return { offset: offsets[lo]!, abbreviation: abbreviations[lo]! };
}

/** The zones a business can choose, sorted by name (aliases such as Canada/Pacific left out). */
export function timeZoneNames(): string[] {
  const names = [...indexed().packedZones.keys()];
  return ['UTC', ...names.filter((name) => name.includes('/') && !name.startsWith('Etc/')).sort()];
}

/** The IANA release of the bundled data (2026f). */
export function zoneDatabaseVersion(): string {
  return zoneData().version;
}

/**
 * The part of the table one zone needs (its rules, and the link when `name` is an alias): what a
 * client that shows only the business's zone loads instead of the whole table.
 */
export function zoneSubset(name: string): ZoneData {
  const canonical = canonicalZone(name);
  if (!canonical) throw new RangeError(`Unknown time zone: ${name}`);
  const { data, packedZones } = indexed();
  return {
    version: data.version,
    source: data.source,
    zones: [packedZones.get(canonical)!],
    links: canonical === name ? [] : [`${canonical}|${name}`],
  };
}
