import { ZodError } from 'zod';
import type { BookingPageSettings } from '../../shared/schemas/booking-page';
import { addDays, dateInZone, zoneAbbreviation } from '../../shared/time-zone';
import { ApiError } from '../lib/errors';
import { escapeHtml } from './page';

const WEEKDAYS = ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday', 'Sunday'];
const SLOT_MINUTES = 30;

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));
const timeOf = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** The start times a day offers, every half hour inside the page's hours (every hour 7-19 when none are set). */
export function slotTimes(page: BookingPageSettings): string[] {
  const windows = page.hours.length ? page.hours : [{ from: '07:00', to: '19:00' }];
  const times = new Set<string>();
  for (const w of windows) {
    for (let m = minutesOf(w.from); m < minutesOf(w.to); m += SLOT_MINUTES) times.add(timeOf(m));
  }
  return [...times].sort();
}

/** The hours offered, one line a weekday, in the business's zone. */
export function hoursList(page: BookingPageSettings, timeZone: string, now: Date): string {
  if (page.hours.length === 0) return '';
  const days = WEEKDAYS.map((name, i) => {
    const windows = page.hours
      .filter((w) => w.weekday === i + 1)
      .sort((a, b) => (a.from < b.from ? -1 : 1))
      .map((w) => `${w.from}–${w.to}`);
    return `<li><span>${name}</span><span>${windows.length ? escapeHtml(windows.join(', ')) : 'Closed'}</span></li>`;
  });
  return `<h2>Hours we offer</h2><div class="card"><ul class="plain">${days.join('')}</ul>
<p class="muted">Times are ${escapeHtml(zoneAbbreviation(now, timeZone))} (${escapeHtml(timeZone)}).</p></div>`;
}

/** Up to three preferred days and times, the first required; the day offered from tomorrow on. */
export function preferredFieldset(page: BookingPageSettings, timeZone: string, now: Date): string {
  const earliest = addDays(dateInZone(now, timeZone), 1);
  const options = slotTimes(page)
    .map((t) => `<option value="${t}">${t}</option>`)
    .join('');
  const pairs = [1, 2, 3]
    .map(
      (
        n,
      ) => `<div class="pair"><div><label for="date${n}">${n === 1 ? 'Preferred day' : `Or day ${n}`}</label>
<input type="date" id="date${n}" name="date${n}" min="${earliest}"${n === 1 ? ' required' : ''}></div>
<div><label for="time${n}">Time</label><select id="time${n}" name="time${n}"${n === 1 ? ' required' : ''}>
<option value="">Choose</option>${options}</select></div></div>`,
    )
    .join('\n');
  return `<fieldset><legend>When would suit you?</legend>${pairs}</fieldset>`;
}

/**
 * Runs the domain's checks on what a form would record, so the visitor gets the refusal now rather
 * than after an owner's device applied it: the message, or null when it passes.
 */
export function refusal(check: () => unknown): string | null {
  try {
    check();
    return null;
  } catch (error) {
    if (error instanceof ApiError && error.status < 500) return error.message;
    if (error instanceof ZodError) {
      const issue = error.issues[0]!;
      return `${issue.path.join('.') || 'form'}: ${issue.message}`;
    }
    throw error;
  }
}

export function errorNotice(error: string | undefined): string {
  return error
    ? `<div class="card notice bad" role="alert"><span class="error">${escapeHtml(error)}</span></div>`
    : '';
}
