import {
  type BookingRequest,
  type BookingRequestListQuery,
  PageRequestInput,
  type PageRequestReceipt,
  type PreferredTime,
  type RequestStatus,
  WorkRequestInput,
} from '../../shared/schemas/booking-request';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { BookingsTable } from '../db/schema';
import type { BookingRequestsTable } from '../db/schema-requests';
import { isoNow } from '../lib/clock';
import { conflict, notFound, validationError } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { getAccount } from './accounts';
import { findService, preferredInstants, requireOpenPage, UNLISTED_SERVICE_MINUTES } from './booking-page';
import { type CheckedPhoto, checkPhotos, insertPhotos, listPhotos } from './booking-photos';
import { presentBookings } from './bookings';
import { findOrCreateCustomer } from './customers';
import { type EventOrigin, recordEvent } from './events';
import { notifyOwner } from './owner-alerts';
import { keysetPage, type Page } from './pagination';
import { presentProperty } from './properties';

/** Ids the caller derives from its action (the client hub's dispatcher): the same action, the same rows. */
const BOOKING_ID = /^bkg_[0-9a-z]{26}$/;

export interface ActionIds {
  /** The booking's id, derived from the customer's action id. */
  id: string;
  /** booking.created's id and time, derived from the action: one event wherever it is applied. */
  origin?: EventOrigin;
}

export function statusOf(request: BookingRequestsTable, booking: BookingsTable): RequestStatus {
  if (request.outcome) return request.outcome;
  return booking.status === 'pending' ? 'open' : 'closed';
}

export async function presentRequests(
  db: Queryable,
  rows: BookingRequestsTable[],
): Promise<BookingRequest[]> {
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.booking_id);
  const propertyIds = rows.flatMap((r) => (r.property_id ? [r.property_id] : []));
  const [bookingRows, properties, photos] = await Promise.all([
    db.selectFrom('bookings').selectAll().where('id', 'in', ids).execute(),
    propertyIds.length
      ? db.selectFrom('properties').selectAll().where('id', 'in', propertyIds).execute()
      : [],
    listPhotos(db, ids),
  ]);
  const bookings = await presentBookings(db, bookingRows);
  return rows.map((row) => {
    const bookingRow = bookingRows.find((b) => b.id === row.booking_id)!;
    const property = properties.find((p) => p.id === row.property_id);
    return {
      id: row.booking_id,
      object: 'booking_request' as const,
      status: statusOf(row, bookingRow),
      origin: row.origin,
      booking: bookings.find((b) => b.id === row.booking_id)!,
      service_id: row.service_id,
      property: property ? presentProperty(property) : null,
      preferred: JSON.parse(row.preferred) as PreferredTime[],
      contact: row.contact ? JSON.parse(row.contact) : null,
      photos: photos
        .filter((p) => p.booking_id === row.booking_id)
        .map((p) => ({
          id: p.id,
          content_type: p.content_type as BookingRequest['photos'][number]['content_type'],
          size_bytes: p.size_bytes,
        })),
      decline_message: row.decline_message,
      quote_id: row.quote_id,
      decided_at: row.decided_at,
      created_at: row.created_at,
    };
  });
}

export async function getRequestRow(
  db: Queryable,
  accountId: string,
  id: string,
): Promise<BookingRequestsTable> {
  const row = await db
    .selectFrom('booking_requests')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('booking_id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No booking request ${id}`);
  return row;
}

export async function getBookingRequest(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<BookingRequest> {
  const [request] = await presentRequests(ctx.db, [await getRequestRow(ctx.db, accountId, id)]);
  return request!;
}

/** Requests newest first; `open` ones are those the owner has yet to answer. */
export async function listBookingRequests(
  ctx: AppContext,
  accountId: string,
  query: BookingRequestListQuery,
): Promise<Page<BookingRequest>> {
  return keysetPage(
    query,
    'bkg',
    async (beforeId, limit) => {
      let q = ctx.db
        .selectFrom('booking_requests as r')
        .innerJoin('bookings as b', 'b.id', 'r.booking_id')
        .selectAll('r')
        .where('r.account_id', '=', accountId);
      if (beforeId) q = q.where('r.booking_id', '<', beforeId);
      if (query.status === 'open') q = q.where('r.outcome', 'is', null).where('b.status', '=', 'pending');
      else if (query.status === 'closed')
        q = q.where('r.outcome', 'is', null).where('b.status', '<>', 'pending');
      else if (query.status) q = q.where('r.outcome', '=', query.status);
      const rows = await q.orderBy('r.booking_id', 'desc').limit(limit).execute();
      return rows.map((row) => ({ ...row, id: row.booking_id }));
    },
    (rows) => presentRequests(ctx.db, rows),
  );
}

interface NewRequest {
  id: string;
  event: EventOrigin | undefined;
  customerId: string;
  origin: BookingRequestsTable['origin'];
  serviceId: string | null;
  serviceName: string;
  propertyId: string | null;
  preferred: PreferredTime[];
  times: Array<{ start: string; end: string }>;
  notes: string | null;
  contact: BookingRequest['contact'];
  photos: CheckedPhoto[];
}

/** The booking (pending, booking.created), the request beside it, its photos and the owner's alert: one transaction. */
async function insertRequest(tx: Tx, ctx: AppContext, accountId: string, request: NewRequest): Promise<void> {
  const now = request.event?.at ?? isoNow(ctx.clock);
  const booking: BookingsTable = {
    id: request.id,
    account_id: accountId,
    customer_id: request.customerId,
    service: request.serviceName,
    start: request.times[0]!.start,
    end: request.times[0]!.end,
    notes: request.notes,
    source: request.origin,
    status: 'pending',
    job_id: null,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto('bookings').values(booking).execute();
  await tx
    .insertInto('booking_requests')
    .values({
      booking_id: request.id,
      account_id: accountId,
      origin: request.origin,
      service_id: request.serviceId,
      property_id: request.propertyId,
      preferred: JSON.stringify(request.preferred),
      contact: request.contact ? JSON.stringify(request.contact) : null,
      outcome: null,
      decline_message: null,
      quote_id: null,
      decided_at: null,
      created_at: now,
      updated_at: now,
    })
    .execute();
  await insertPhotos(tx, accountId, request.id, request.photos, now);
  const [presented] = await presentBookings(tx, [booking]);
  await recordEvent(tx, ctx.clock, accountId, 'booking.created', presented, request.event);
  const customer = presented!.customer;
  const choices = request.preferred.map((p) => `${p.date} ${p.time}`).join(', ');
  await notifyOwner(tx, ctx, accountId, {
    key: `booking_request:${request.id}`,
    at: request.id,
    subject: `New booking request: ${request.serviceName} for ${request.contact?.name ?? customer.name}`,
    body: [
      `${request.contact?.name ?? customer.name} asks for ${request.serviceName}.`,
      `Preferred times: ${choices}.`,
      request.notes ? `Notes: ${request.notes}` : null,
      request.photos.length ? `Photos: ${request.photos.length}` : null,
      '',
      'Open Shopdesk › Bookings to confirm it, turn it into a quote or a job, or decline it.',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  });
}

/** When the customer asked: the action's time when applying one, else now. */
function askedAt(ctx: AppContext, ids: ActionIds): number {
  return ids.origin ? Date.parse(ids.origin.at) : ctx.clock.now().getTime();
}

function requireBookingId(id: string): void {
  if (!BOOKING_ID.test(id)) throw validationError('id must be a booking id (bkg_ and 26 characters)', 'id');
}

/**
 * Applies an earlier call with the same id: its request, when this account holds it. The same id
 * in another account is a caller's bug, refused rather than answered.
 */
async function existingRequest(tx: Tx, accountId: string, id: string): Promise<BookingRequestsTable | null> {
  const booking = await tx
    .selectFrom('bookings')
    .select('account_id')
    .where('id', '=', id)
    .executeTakeFirst();
  if (!booking) return null;
  if (booking.account_id !== accountId) throw conflict(`Booking id ${id} is taken`, 'id');
  return getRequestRow(tx, accountId, id);
}

/**
 * A known customer asks for work (the client hub's "request work" form). `ids.id` is the booking's
 * id, derived from the customer's action: a second call with it changes nothing and returns the
 * same request, so an action applied again (a retry, another install) takes effect once.
 */
export async function requestBooking(
  ctx: AppContext,
  accountId: string,
  input: WorkRequestInput,
  ids: ActionIds,
): Promise<BookingRequest> {
  return ctx.db.transaction().execute((tx) => requestBookingIn(tx, ctx, accountId, input, ids));
}

/** requestBooking inside the caller's transaction (the client hub's applier keeps one per action). */
export async function requestBookingIn(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: WorkRequestInput,
  ids: ActionIds,
): Promise<BookingRequest> {
  requireBookingId(ids.id);
  const request = WorkRequestInput.parse(input);
  const photos = checkPhotos(request.photos ?? []);
  const done = await existingRequest(tx, accountId, ids.id);
  if (done) return (await presentRequests(tx, [done]))[0]!;
  const { config } = await getAccount(tx, accountId);
  const customer = await findOrCreateCustomer(tx, ctx, accountId, { customer_id: request.customer_id });
  if (request.property_id) {
    const place = await tx
      .selectFrom('properties')
      .select(['customer_id', 'status'])
      .where('account_id', '=', accountId)
      .where('id', '=', request.property_id)
      .executeTakeFirst();
    if (!place || place.customer_id !== customer.id || place.status !== 'active') {
      throw validationError(`No place ${request.property_id} of this customer`, 'property_id');
    }
  }
  const service = request.service_id ? findService(config.booking_page, request.service_id) : null;
  const duration = service?.duration_minutes ?? UNLISTED_SERVICE_MINUTES;
  await insertRequest(tx, ctx, accountId, {
    id: ids.id,
    event: ids.origin,
    customerId: customer.id,
    origin: 'client_hub',
    serviceId: service?.id ?? null,
    serviceName: service?.name ?? request.service!,
    propertyId: request.property_id ?? null,
    preferred: request.preferred,
    times: preferredInstants(
      askedAt(ctx, ids),
      config.booking_page,
      config.timezone,
      request.preferred,
      duration,
    ),
    notes: request.notes ?? null,
    contact: null,
    photos,
  });
  return (await presentRequests(tx, [await getRequestRow(tx, accountId, ids.id)]))[0]!;
}

/**
 * Someone asks through the public booking page. The e-mail finds their customer record or makes
 * one (its id derived from the request's); an existing record is never changed by what a visitor
 * types (that is kept on the request as `contact`). The answer is the same either way, so the page
 * never tells a visitor whether an e-mail belongs to a customer.
 */
export async function requestBookingFromPage(
  ctx: AppContext,
  accountId: string,
  input: PageRequestInput,
  ids: ActionIds,
): Promise<PageRequestReceipt> {
  return ctx.db.transaction().execute((tx) => requestFromPageIn(tx, ctx, accountId, input, ids));
}

/** requestBookingFromPage inside the caller's transaction (the client hub's applier keeps one per action). */
export async function requestFromPageIn(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: PageRequestInput,
  ids: ActionIds,
): Promise<PageRequestReceipt> {
  requireBookingId(ids.id);
  const request = PageRequestInput.parse(input);
  const photos = checkPhotos(request.photos ?? []);
  const done = await existingRequest(tx, accountId, ids.id);
  if (done) return receipt(done.booking_id, done.created_at);
  const { config } = await getAccount(tx, accountId);
  requireOpenPage(config.booking_page);
  const service = findService(config.booking_page, request.service_id);
  const times = preferredInstants(
    askedAt(ctx, ids),
    config.booking_page,
    config.timezone,
    request.preferred,
    service.duration_minutes,
  );
  const customer = await findOrCreateCustomer(tx, ctx, accountId, {
    email: request.email,
    name: request.name,
    phone: request.phone ?? null,
    address: request.address ?? null,
    newId: derivedId('cus', idTime(ids.id) ?? ctx.clock.now().getTime(), `booking_page:${ids.id}`),
  });
  await insertRequest(tx, ctx, accountId, {
    id: ids.id,
    event: ids.origin,
    customerId: customer.id,
    origin: 'booking_page',
    serviceId: service.id,
    serviceName: service.name,
    propertyId: null,
    preferred: request.preferred,
    times,
    notes: request.notes ?? null,
    contact: {
      name: request.name,
      email: request.email,
      phone: request.phone ?? null,
      address: request.address ?? null,
    },
    photos,
  });
  return receipt(ids.id, ids.origin?.at ?? isoNow(ctx.clock));
}

function receipt(id: string, receivedAt: string): PageRequestReceipt {
  return { object: 'booking_request_receipt', id, received_at: receivedAt };
}
