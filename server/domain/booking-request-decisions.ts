import { placeLine } from '../../shared/place';
import type { BookingConfirm } from '../../shared/schemas/booking';
import { type BookingRequest, RequestDecline, RequestSchedule } from '../../shared/schemas/booking-request';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { BookingsTable } from '../db/schema';
import type { BookingRequestsTable, RequestOutcome } from '../db/schema-requests';
import { isoNow } from '../lib/clock';
import { invalidState } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { getAccount } from './accounts';
import { getRequestRow, presentRequests, statusOf } from './booking-requests';
import { confirmBookingRow, finishBookingRow, getBookingRow } from './bookings';
import { queueMail } from './mail';
import { insertQuote } from './quotes';

const statusWords: Record<string, string> = {
  confirmed: 'was confirmed',
  converted_to_job: 'became a job',
  converted_to_quote: 'became a quote',
  declined: 'was declined',
  closed: 'was closed from its booking',
};

interface Open {
  request: BookingRequestsTable;
  booking: BookingsTable;
}

/** The owner answers a request once: whatever they chose first stands. */
async function openRequest(tx: Tx, accountId: string, id: string): Promise<Open> {
  const request = await getRequestRow(tx, accountId, id);
  const booking = await getBookingRow(tx, accountId, id);
  const status = statusOf(request, booking);
  if (status !== 'open') {
    throw invalidState(`This request ${statusWords[status]} already`, { status });
  }
  return { request, booking };
}

async function decide(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  id: string,
  outcome: RequestOutcome,
  extra: Partial<Pick<BookingRequestsTable, 'decline_message' | 'quote_id'>> = {},
): Promise<BookingRequest> {
  const now = isoNow(ctx.clock);
  await tx
    .updateTable('booking_requests')
    .set({ outcome, decided_at: now, updated_at: now, ...extra })
    .where('booking_id', '=', id)
    .execute();
  return (await presentRequests(tx, [await getRequestRow(tx, accountId, id)]))[0]!;
}

/** The owner's time for the visit, when not the customer's first choice. */
async function reschedule(
  tx: Tx,
  ctx: AppContext,
  open: Open,
  schedule: RequestSchedule,
): Promise<BookingsTable> {
  if (!schedule.start || !schedule.end) return open.booking;
  const start = new Date(schedule.start).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const end = new Date(schedule.end).toISOString().replace(/\.\d{3}Z$/, 'Z');
  const next = { ...open.booking, start, end, updated_at: isoNow(ctx.clock) };
  await tx
    .updateTable('bookings')
    .set({ start, end, updated_at: next.updated_at })
    .where('id', '=', next.id)
    .execute();
  return next;
}

async function visitAddress(
  tx: Tx,
  request: BookingRequestsTable,
  booking: BookingsTable,
): Promise<string | null> {
  if (request.property_id) {
    const place = await tx
      .selectFrom('properties')
      .selectAll()
      .where('id', '=', request.property_id)
      .executeTakeFirst();
    if (place) return placeLine(place);
  }
  const customer = await tx
    .selectFrom('customers')
    .select('address')
    .where('id', '=', booking.customer_id)
    .executeTakeFirst();
  return customer?.address ?? null;
}

/**
 * Confirms the request's booking at the owner's time (else the customer's first choice), with the
 * confirmation `options` for the booking as rescheduled, and records the outcome.
 */
async function confirmScheduled(
  ctx: AppContext,
  accountId: string,
  id: string,
  input: RequestSchedule,
  outcome: 'confirmed' | 'converted_to_job',
  options: (tx: Tx, open: Open, booking: BookingsTable, schedule: RequestSchedule) => Promise<BookingConfirm>,
): Promise<BookingRequest> {
  const schedule = RequestSchedule.parse(input);
  return ctx.db.transaction().execute(async (tx) => {
    const open = await openRequest(tx, accountId, id);
    const booking = await reschedule(tx, ctx, open, schedule);
    await confirmBookingRow(tx, ctx, accountId, booking, await options(tx, open, booking, schedule));
    return decide(tx, ctx, accountId, id, outcome);
  });
}

/** Confirms the request: its booking is confirmed for the chosen time, with no job yet. */
export function confirmRequest(
  ctx: AppContext,
  accountId: string,
  id: string,
  input: RequestSchedule = {},
): Promise<BookingRequest> {
  return confirmScheduled(ctx, accountId, id, input, 'confirmed', async () => ({ create_job: false }));
}

/** Schedules the work: the booking is confirmed and a job made for it, at the request's place. */
export function convertRequestToJob(
  ctx: AppContext,
  accountId: string,
  id: string,
  input: RequestSchedule = {},
): Promise<BookingRequest> {
  return confirmScheduled(
    ctx,
    accountId,
    id,
    input,
    'converted_to_job',
    async (tx, open, booking, schedule) => ({
      create_job: true,
      assignees: schedule.assignees ?? [],
      address: await visitAddress(tx, open.request, booking),
    }),
  );
}

/**
 * The work needs a price first: a draft quote for the service (the page's price, or 0 to fill
 * in), and the booking is closed; the quote carries the request on.
 */
export async function convertRequestToQuote(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<BookingRequest> {
  return ctx.db.transaction().execute(async (tx) => {
    const open = await openRequest(tx, accountId, id);
    const { config } = await getAccount(tx, accountId);
    const service = config.booking_page.services.find((s) => s.id === open.request.service_id);
    const where = await visitAddress(tx, open.request, open.booking);
    const quote = await insertQuote(tx, ctx, accountId, {
      customer_id: open.booking.customer_id,
      items: [
        {
          description: where ? `${open.booking.service} at ${where}` : open.booking.service,
          quantity: 1,
          unit_price: service?.price ?? 0,
        },
      ],
      ...(open.booking.notes ? { notes: open.booking.notes } : {}),
    });
    await finishBookingRow(tx, ctx, accountId, open.booking, 'cancel');
    return decide(tx, ctx, accountId, id, 'converted_to_quote', { quote_id: quote.id });
  });
}

/** Declines with a message: the booking is cancelled and the message e-mailed to the customer (when they have an e-mail). */
export async function declineRequest(
  ctx: AppContext,
  accountId: string,
  id: string,
  input: RequestDecline,
): Promise<BookingRequest> {
  const { message } = RequestDecline.parse(input);
  return ctx.db.transaction().execute(async (tx) => {
    const open = await openRequest(tx, accountId, id);
    await finishBookingRow(tx, ctx, accountId, open.booking, 'cancel');
    const customer = await tx
      .selectFrom('customers')
      .select(['email', 'name'])
      .where('id', '=', open.booking.customer_id)
      .executeTakeFirstOrThrow();
    if (customer.email) {
      const { config } = await getAccount(tx, accountId);
      await queueMail(tx, ctx, accountId, {
        id: derivedId('msg', idTime(id) ?? ctx.clock.now().getTime(), `booking_reply:${id}`),
        kind: 'winback',
        purpose: 'booking_reply',
        customerId: open.booking.customer_id,
        documentId: null,
        to: customer.email,
        subject: `Your request for ${open.booking.service}`,
        body: `Hi ${customer.name},\n\n${message}\n\n${config.business_name}`,
      });
    }
    return decide(tx, ctx, accountId, id, 'declined', { decline_message: message });
  });
}
