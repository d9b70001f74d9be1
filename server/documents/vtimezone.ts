import { offsetMinutes, wallTime } from '../../shared/time-zone';

const DAY_MS = 86_400_000;

function formatOffset(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}${String(abs % 60).padStart(2, '0')}`;
}

function localStamp(instantMs: number, offset: number): string {
  return new Date(instantMs + offset * 60_000)
    .toISOString()
    .replace(/\.\d{3}Z$/, '')
    .replace(/[-:]/g, '');
}

function abbreviation(instant: Date, timeZone: string): string | undefined {
  return new Intl.DateTimeFormat('en-US', { timeZone, timeZoneName: 'short' })
    .formatToParts(instant)
    .find((p) => p.type === 'timeZoneName')?.value;
}

/** The first minute at which the offset differs from the one at `before` (a transition lies in (before, after]). */
function transitionInstant(beforeMs: number, afterMs: number, timeZone: string): number {
  const initial = offsetMinutes(new Date(beforeMs), timeZone);
  let lo = beforeMs;
  let hi = afterMs;
  while (hi - lo > 60_000) {
    const mid = lo + Math.floor((hi - lo) / 120_000) * 60_000;
    if (offsetMinutes(new Date(mid), timeZone) === initial) lo = mid;
    else hi = mid;
  }
  return hi;
}

interface Observance {
  onsetMs: number;
  from: number;
  to: number;
}

/**
 * A VTIMEZONE for `timeZone` built from the platform's zone data: one observance per offset change
 * between the two instants (no RRULEs, so no guessing of future rules is involved). RFC 5545
 * needs one for every TZID an event uses; calendar apps convert times with it.
 */
export function buildVtimezone(timeZone: string, fromMs: number, toMs: number): string {
  const observances: Observance[] = [];
  const startOffset = offsetMinutes(new Date(fromMs), timeZone);
  let previous = startOffset;
  for (let t = fromMs; t < toMs; t += DAY_MS) {
    const next = offsetMinutes(new Date(t + DAY_MS), timeZone);
    if (next !== previous) {
      observances.push({ onsetMs: transitionInstant(t, t + DAY_MS, timeZone), from: previous, to: next });
      previous = next;
    }
  }
  const firstChange = observances[0];
  const lines = ['BEGIN:VTIMEZONE', `TZID:${timeZone}`];
  const block = (o: Observance, daylight: boolean) => {
    const kind = daylight ? 'DAYLIGHT' : 'STANDARD';
    const name = abbreviation(new Date(o.onsetMs), timeZone);
    lines.push(
      `BEGIN:${kind}`,
      `DTSTART:${localStamp(o.onsetMs, o.from)}`,
      `TZOFFSETFROM:${formatOffset(o.from)}`,
      `TZOFFSETTO:${formatOffset(o.to)}`,
      ...(name ? [`TZNAME:${name}`] : []),
      `END:${kind}`,
    );
  };
  // The offset in force when the window opens, so times before the first change resolve too.
  block(
    { onsetMs: fromMs, from: startOffset, to: startOffset },
    firstChange !== undefined && startOffset > firstChange.to,
  );
  for (const o of observances) block(o, o.to > o.from);
  lines.push('END:VTIMEZONE');
  return lines.join('\r\n');
}

/**
 * An instant in the shape ical-generator formats per time zone (the Luxon DateTime subset it
 * calls). Native Dates would be formatted in the server process's own zone, not the account's.
 */
export class ZonedInstant {
  readonly isValid = true;
  readonly zone: { type: string };

  constructor(
    private readonly instant: Date,
    private readonly timeZone = 'UTC',
  ) {
    this.zone = { type: 'iana' };
  }

  toJSDate(): Date {
    return new Date(this.instant);
  }

  toJSON(): string {
    return this.instant.toISOString();
  }

  setZone(timeZone: string): ZonedInstant {
    return new ZonedInstant(this.instant, timeZone.toLowerCase() === 'utc' ? 'UTC' : timeZone);
  }

  toFormat(format: 'yyyyLLdd' | 'HHmmss'): string {
    const w = wallTime(this.instant, this.timeZone);
    const pad = (n: number, width = 2) => String(n).padStart(width, '0');
    if (format === 'yyyyLLdd') return `${pad(w.year, 4)}${pad(w.month)}${pad(w.day)}`;
    return `${pad(w.hour)}${pad(w.minute)}${pad(w.second)}`;
  }
}
