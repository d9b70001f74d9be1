import ical, { ICalEventStatus } from 'ical-generator';
import { fromCents } from '../../shared/money';
import { placeLine } from '../../shared/place';
import type { AppContext } from '../context';
import { getAccount } from '../domain/accounts';
import { jobsStartingBetween } from '../domain/scheduled-jobs';
import { toIso } from '../lib/clock';

const DAY_MS = 86_400_000;
export const FEED_PAST_DAYS = 90;
export const FEED_FUTURE_DAYS = 365;
/** Jobs without an end still need one in a calendar; an hour is what most apps assume. */
const DEFAULT_DURATION_MS = 60 * 60 * 1000;

const jobStatusLabel: Record<string, string> = {
  scheduled: 'Scheduled',
  in_progress: 'In progress',
  completed: 'Completed',
};

/**
 * The account's calendar feed (RFC 5545): every scheduled, in-progress or completed job with a
 * start, and every confirmed booking not already shown through its job, from 90 days back to a
 * year ahead. UIDs are the record ids, so calendar apps update events in place on each refresh.
 * Times are UTC instants: a calendar app given a TZID converts with its own copy of the zone rules
 * (ignoring the feed's VTIMEZONE), which put every Vancouver job an hour off once British Columbia
 * stopped changing clocks. An instant means the same thing to every app.
 */
export async function buildCalendarFeed(ctx: AppContext, accountId: string): Promise<string> {
  const { config } = await getAccount(ctx.db, accountId);
  const nowMs = ctx.clock.now().getTime();
  const fromMs = nowMs - FEED_PAST_DAYS * DAY_MS;
  const toMs = nowMs + FEED_FUTURE_DAYS * DAY_MS;
  const from = toIso(new Date(fromMs));
  const to = toIso(new Date(toMs));

  const [jobs, bookings] = await Promise.all([
    jobsStartingBetween(ctx.db, accountId, {
      start: from,
      end: to,
      statuses: ['scheduled', 'in_progress', 'completed'],
    }),
    ctx.db
      .selectFrom('bookings as b')
      .innerJoin('customers as c', 'c.id', 'b.customer_id')
      .leftJoin('jobs as j', 'j.id', 'b.job_id')
      .leftJoin('properties as p', 'p.id', 'b.property_id')
      .select([
        'b.id',
        'b.service',
        'b.start',
        'b.end',
        'b.notes',
        'b.created_at',
        'b.updated_at',
        'c.name as customer_name',
        'c.address',
        'p.street',
        'p.unit',
        'p.city',
        'p.region',
        'p.postal_code',
      ])
      .where('b.account_id', '=', accountId)
      .where('b.status', '=', 'confirmed')
      .where('b.start', '>=', from)
      .where('b.start', '<', to)
      // A booking whose job is live is already on the calendar as that job.
      .where((eb) => eb.or([eb('j.id', 'is', null), eb('j.status', '=', 'cancelled')]))
      .orderBy('b.start')
      .execute(),
  ]);

  const money = new Intl.NumberFormat(config.locale, { style: 'currency', currency: config.currency });
  const calendar = ical({
    name: config.business_name,
    prodId: { company: 'Shopdesk', product: 'Shopdesk', language: 'EN' },
  });
  // Only a hint for the calendar's display zone; no time in the feed depends on it.
  calendar.x('X-WR-TIMEZONE', config.timezone);
  const at = (iso: string) => new Date(iso);

  for (const job of jobs) {
    const start = new Date(job.scheduled_start!);
    const names = job.assignees.map((a) => a.name);
    calendar.createEvent({
      id: `${job.id}@shopdesk`,
      start: at(job.scheduled_start!),
      end: at(job.scheduled_end ?? toIso(new Date(start.getTime() + DEFAULT_DURATION_MS))),
      stamp: at(job.updated_at),
      created: at(job.created_at),
      lastModified: at(job.updated_at),
      summary: `${job.title} — ${job.customer_name}`,
      location: job.address,
      status: ICalEventStatus.CONFIRMED,
      description: [
        `Job ${job.number} (${jobStatusLabel[job.status] ?? job.status})`,
        `Assigned: ${names.length ? names.join(', ') : 'nobody yet'}`,
        ...(job.place_label ? [`Place: ${job.place_label}`] : []),
        // The feed is the business's own calendar: the crew reads how to get in there.
        ...(job.access_notes ? [`Access: ${job.access_notes}`] : []),
        ...(job.price_cents === null ? [] : [`Price: ${money.format(fromCents(job.price_cents))}`]),
      ].join('\n'),
    });
  }
  for (const booking of bookings) {
    calendar.createEvent({
      id: `${booking.id}@shopdesk`,
      start: at(booking.start),
      end: at(booking.end),
      stamp: at(booking.updated_at),
      created: at(booking.created_at),
      lastModified: at(booking.updated_at),
      summary: `${booking.service} — ${booking.customer_name}`,
      // Where the crew goes: the booking's place, or the customer's address when it names none.
      location: booking.street ? placeLine({ ...booking, street: booking.street }) : booking.address,
      status: ICalEventStatus.CONFIRMED,
      description: ['Confirmed booking', ...(booking.notes ? [booking.notes] : [])].join('\n'),
    });
  }
  return calendar.toString();
}
