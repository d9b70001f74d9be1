import {
  type BookableService,
  BookingPageSettings,
  BookingPageUpdate,
} from '../../shared/schemas/booking-page';
import type { PreferredTime } from '../../shared/schemas/booking-request';
import { StoredConfig } from '../../shared/schemas/config';
import { isoWeekday, zonedToUtc } from '../../shared/time-zone';
import type { AppContext } from '../context';
import { isoNow, toIso } from '../lib/clock';
import { invalidState, validationError } from '../lib/errors';
import { randomBase62 } from '../lib/ids';
import { getAccount } from './accounts';

/** How long a request for work no listed service describes is booked for, until the owner sets the time. */
export const UNLISTED_SERVICE_MINUTES = 60;

export async function getBookingPage(ctx: AppContext, accountId: string): Promise<BookingPageSettings> {
  return (await getAccount(ctx.db, accountId)).config.booking_page;
}

/**
 * Replaces the booking page settings. A listed service keeps its id (links and requests name it);
 * a new one gets one. An id the page does not have is refused rather than invented.
 */
export async function updateBookingPage(
  ctx: AppContext,
  accountId: string,
  input: BookingPageUpdate,
): Promise<BookingPageSettings> {
  const update = BookingPageUpdate.parse(input);
  return ctx.db.transaction().execute(async (tx) => {
    const account = await getAccount(tx, accountId);
    const known = new Set(account.config.booking_page.services.map((s) => s.id));
    const services: BookableService[] = update.services.map((service, i) => {
      if (service.id && !known.has(service.id)) {
        throw validationError(`No service ${service.id} on this booking page`, `services[${i}].id`);
      }
      return {
        id: service.id ?? `svc_${randomBase62(12)}`,
        name: service.name,
        duration_minutes: service.duration_minutes,
        price: service.price ?? null,
      };
    });
    const hours = [...update.hours].sort((a, b) => a.weekday - b.weekday || a.from.localeCompare(b.from));
    const page = BookingPageSettings.parse({
      enabled: update.enabled,
      intro: update.intro ?? null,
      services,
      hours,
    });
    const config = StoredConfig.parse({ ...account.config, booking_page: page });
    await tx
      .updateTable('accounts')
      .set({ config: JSON.stringify(config), updated_at: isoNow(ctx.clock) })
      .where('id', '=', accountId)
      .execute();
    return page;
  });
}

export function findService(page: BookingPageSettings, serviceId: string): BookableService {
  const service = page.services.find((s) => s.id === serviceId);
  if (!service) throw validationError(`No service ${serviceId} is offered`, 'service_id');
  return service;
}

const minutesOf = (time: string) => Number(time.slice(0, 2)) * 60 + Number(time.slice(3, 5));

/**
 * The instants of the customer's preferred times (the business's time zone), each after `nowMs`
 * (when the customer asked: an action applied later is judged as of its own time) and, when the
 * page offers hours, inside the hours of its weekday for the whole duration.
 */
export function preferredInstants(
  nowMs: number,
  page: BookingPageSettings,
  timeZone: string,
  preferred: PreferredTime[],
  durationMinutes: number,
): Array<{ start: string; end: string }> {
  return preferred.map((choice, i) => {
    const start = zonedToUtc(choice.date, choice.time, timeZone);
    if (start.getTime() <= nowMs) {
      throw validationError(`${choice.date} ${choice.time} has passed: pick a time ahead`, `preferred[${i}]`);
    }
    if (page.hours.length) {
      const weekday = isoWeekday(choice.date);
      const from = minutesOf(choice.time);
      const fits = page.hours.some(
        (w) =>
          w.weekday === weekday && minutesOf(w.from) <= from && from + durationMinutes <= minutesOf(w.to),
      );
      if (!fits) {
        throw validationError(
          `${choice.date} ${choice.time} is outside the hours offered (${durationMinutes} minutes from the start must fit)`,
          `preferred[${i}]`,
        );
      }
    }
    return { start: toIso(start), end: toIso(new Date(start.getTime() + durationMinutes * 60_000)) };
  });
}

/** The public page takes requests only while the owner has it on. */
export function requireOpenPage(page: BookingPageSettings): void {
  if (!page.enabled) throw invalidState('This business is not taking bookings online.');
}
