import {
  type Booking,
  BookingConfirm,
  BookingCreate,
  type BookingListQuery,
  type BookingStatus,
  type BookingUpdate,
} from '../../shared/schemas/booking';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { BookingsTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { findOrCreateCustomer } from './customers';
import { recordEvent } from './events';
import { applyJobAction, insertJob, type JobAction, rescheduleBookedJob } from './jobs';
import {
  type OwnerFilters,
  periodInstants,
  type TimeFilters,
  whereOwnerFilters,
  wherePeriod,
  whereTimeFilters,
} from './list-filters';
import { keysetPage, type Page } from './pagination';
import { placeAddress, placeFor } from './properties';

export type BookingAction = 'confirm' | 'cancel' | 'complete' | 'no_show';

/** Contract part 4: pending → confirmed → completed | cancelled | no_show; cancelled also from pending. */
const BOOKING_TRANSITIONS: Record<BookingAction, { from: BookingStatus[]; to: BookingStatus }> = {
  confirm: { from: ['pending'], to: 'confirmed' },
  cancel: { from: ['pending', 'confirmed'], to: 'cancelled' },
  complete: { from: ['confirmed'], to: 'completed' },
  no_show: { from: ['confirmed'], to: 'no_show' },
};

const verb: Record<BookingAction, string> = {
  confirm: 'confirmed',
  cancel: 'cancelled',
  complete: 'completed',
  no_show: 'marked as a no-show',
};

/** The status an action moves a booking to, or 409 invalid_state. */
export function nextBookingStatus(current: BookingStatus, action: BookingAction): BookingStatus {
  const rule = BOOKING_TRANSITIONS[action];
  if (!rule.from.includes(current)) {
    throw invalidState(`A ${current.replace('_', '-')} booking cannot be ${verb[action]}`, {
      status: current,
      allowed_from: rule.from,
    });
  }
  return rule.to;
}

/** What happens to the job a confirmed booking created when the booking ends. */
const jobActionFor: Partial<Record<BookingAction, JobAction>> = {
  cancel: 'cancel',
  no_show: 'cancel',
  complete: 'complete',
};

export async function presentBookings(db: Queryable, rows: BookingsTable[]): Promise<Booking[]> {
  if (rows.length === 0) return [];
  const customers = await db
    .selectFrom('customers')
    .select(['id', 'name', 'email'])
    .where('id', 'in', [...new Set(rows.map((r) => r.customer_id))])
    .execute();
  return rows.map((row) => {
    const customer = customers.find((c) => c.id === row.customer_id)!;
    return {
      id: row.id,
      object: 'booking' as const,
      status: row.status,
      customer: { id: customer.id, name: customer.name, email: customer.email },
      service: row.service,
      start: row.start,
      end: row.end,
      notes: row.notes,
      property_id: row.property_id ?? null,
      source: row.source,
      job_id: row.job_id,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

async function presentBooking(db: Queryable, row: BookingsTable): Promise<Booking> {
  const [booking] = await presentBookings(db, [row]);
  return booking!;
}

export async function getBookingRow(db: Queryable, accountId: string, id: string): Promise<BookingsTable> {
  const row = await db
    .selectFrom('bookings')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No booking ${id}`);
  return row;
}

export async function getBooking(ctx: AppContext, accountId: string, id: string): Promise<Booking> {
  return presentBooking(ctx.db, await getBookingRow(ctx.db, accountId, id));
}

export type BookingListFilters = BookingListQuery & OwnerFilters & TimeFilters;

export async function listBookings(
  ctx: AppContext,
  accountId: string,
  query: BookingListFilters,
): Promise<Page<Booking>> {
  const period = await periodInstants(ctx.db, accountId, query);
  return keysetPage(
    query,
    'bkg',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('bookings as b').selectAll('b').where('b.account_id', '=', accountId);
      if (beforeId) q = q.where('b.id', '<', beforeId);
      if (query.status) q = q.where('b.status', '=', query.status);
      q = wherePeriod(q, 'b.start', period);
      q = whereOwnerFilters(q, 'b', query);
      q = whereTimeFilters(q, 'b', query);
      return q.orderBy('b.id', 'desc').limit(limit).execute();
    },
    (rows) => presentBookings(ctx.db, rows),
  );
}

/**
 * Records a booking request (emits booking.created). `defaultSource` names the door it came
 * through ('portal', 'v1', 'widget') when the body does not say.
 */
export async function createBooking(
  ctx: AppContext,
  accountId: string,
  input: BookingCreate,
  defaultSource: string,
): Promise<Booking> {
  const booking = BookingCreate.parse(input);
  return ctx.db.transaction().execute(async (tx) => {
    const customer = await findOrCreateCustomer(tx, ctx, accountId, {
      customer_id: booking.customer_id,
      email: booking.customer_email,
      name: booking.customer_name,
    });
    const place = await placeFor(tx, accountId, customer.id, booking.property_id);
    const now = isoNow(ctx.clock);
    const row: BookingsTable = {
      id: newId('bkg', ctx.clock.now().getTime()),
      account_id: accountId,
      customer_id: customer.id,
      property_id: place?.id ?? null,
      service: booking.service,
      start: booking.start,
      end: booking.end,
      notes: booking.notes ?? null,
      source: booking.source ?? defaultSource,
      status: 'pending',
      job_id: null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('bookings').values(row).execute();
    const presented = await presentBooking(tx, row);
    await recordEvent(tx, ctx.clock, accountId, 'booking.created', presented);
    return presented;
  });
}

/** Changes service, time or notes of a booking still ahead (pending or confirmed); its open job follows. */
export async function updateBooking(
  ctx: AppContext,
  accountId: string,
  id: string,
  patch: BookingUpdate,
): Promise<Booking> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getBookingRow(tx, accountId, id);
    if (row.status !== 'pending' && row.status !== 'confirmed') {
      throw invalidState(`This booking is ${row.status} and can no longer be changed`, {
        status: row.status,
      });
    }
    const next: BookingsTable = {
      ...row,
      service: patch.service ?? row.service,
      start: patch.start ?? row.start,
      end: patch.end ?? row.end,
      notes: patch.notes === undefined ? row.notes : patch.notes,
      updated_at: isoNow(ctx.clock),
    };
    if (next.end <= next.start) throw validationError('end must be after start', 'end');
    if (patch.property_id !== undefined) {
      const place = await placeFor(tx, accountId, row.customer_id, patch.property_id);
      next.property_id = place?.id ?? null;
      // The job booked for it goes where the booking now is, unless it is over.
      if (row.job_id && place) {
        await tx
          .updateTable('jobs')
          .set({ property_id: place.id, address: placeAddress(place, null), updated_at: next.updated_at })
          .where('id', '=', row.job_id)
          .where('status', 'in', ['unscheduled', 'scheduled', 'in_progress'])
          .execute();
      }
    }
    await tx.updateTable('bookings').set(next).where('id', '=', row.id).execute();
    if (row.job_id && (next.start !== row.start || next.end !== row.end)) {
      await rescheduleBookedJob(tx, ctx, accountId, row.job_id, next);
    }
    return presentBooking(tx, next);
  });
}

async function applyAction(
  tx: Tx,
  ctx: AppContext,
  row: BookingsTable,
  action: BookingAction,
  jobId: string | null = row.job_id,
): Promise<Booking> {
  const next: BookingsTable = {
    ...row,
    status: nextBookingStatus(row.status, action),
    job_id: jobId,
    updated_at: isoNow(ctx.clock),
  };
  await tx
    .updateTable('bookings')
    .set({ status: next.status, job_id: next.job_id, updated_at: next.updated_at })
    .where('id', '=', row.id)
    .execute();
  return presentBooking(tx, next);
}

/** Confirms a pending booking and, unless create_job is false, schedules a job for it in the same transaction. */
export async function confirmBooking(
  ctx: AppContext,
  accountId: string,
  id: string,
  input: BookingConfirm = {},
): Promise<Booking> {
  const options = BookingConfirm.parse(input);
  return ctx.db
    .transaction()
    .execute(async (tx) =>
      confirmBookingRow(tx, ctx, accountId, await getBookingRow(tx, accountId, id), options),
    );
}

/** Confirms a pending booking inside the caller's transaction (a booking request's decision uses it). */
export async function confirmBookingRow(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  row: BookingsTable,
  options: BookingConfirm,
): Promise<Booking> {
  nextBookingStatus(row.status, 'confirm');
  let jobId: string | null = row.job_id;
  if (options.create_job && !jobId) {
    const customer = await tx
      .selectFrom('customers')
      .select(['email', 'name', 'address'])
      .where('id', '=', row.customer_id)
      .executeTakeFirstOrThrow();
    const job = await insertJob(
      tx,
      ctx,
      accountId,
      {
        customer_id: row.customer_id,
        title: row.service,
        scheduled_start: row.start,
        scheduled_end: row.end,
        assignees: options.assignees ?? [],
        // An address given on confirming is where this job is; otherwise it is the booking's place.
        ...(options.address === undefined
          ? { property_id: row.property_id ?? null, address: customer.address }
          : { address: options.address }),
        notes: row.notes,
      },
      { bookingId: row.id },
    );
    jobId = job.id;
  }
  return applyAction(tx, ctx, row, 'confirm', jobId);
}

/** Ends a booking; the job it created, if not yet finished, is completed or cancelled with it. */
function finish(ctx: AppContext, accountId: string, id: string, action: Exclude<BookingAction, 'confirm'>) {
  return ctx.db
    .transaction()
    .execute(async (tx) =>
      finishBookingRow(tx, ctx, accountId, await getBookingRow(tx, accountId, id), action),
    );
}

/** Ends a booking inside the caller's transaction. */
export async function finishBookingRow(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  row: BookingsTable,
  action: Exclude<BookingAction, 'confirm'>,
): Promise<Booking> {
  const booking = await applyAction(tx, ctx, row, action);
  const jobAction = jobActionFor[action];
  if (row.job_id && jobAction) {
    const job = await tx.selectFrom('jobs').selectAll().where('id', '=', row.job_id).executeTakeFirst();
    if (job && job.status !== 'completed' && job.status !== 'cancelled') {
      await applyJobAction(tx, ctx, accountId, job, jobAction);
    }
  }
  return booking;
}

export const cancelBooking = (ctx: AppContext, accountId: string, id: string) =>
  finish(ctx, accountId, id, 'cancel');
export const completeBooking = (ctx: AppContext, accountId: string, id: string) =>
  finish(ctx, accountId, id, 'complete');
export const markNoShow = (ctx: AppContext, accountId: string, id: string) =>
  finish(ctx, accountId, id, 'no_show');

/** Deletes a pending booking (a request entered by mistake); anything confirmed keeps its history. */
export async function deleteBooking(
  ctx: AppContext,
  accountId: string,
  id: string,
): Promise<{ id: string; object: 'booking'; deleted: true }> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await getBookingRow(tx, accountId, id);
    if (row.status !== 'pending') {
      throw invalidState(`This booking is ${row.status}; cancel it instead of deleting it`, {
        status: row.status,
      });
    }
    await tx.deleteFrom('booking_photos').where('booking_id', '=', row.id).execute();
    await tx.deleteFrom('booking_requests').where('booking_id', '=', row.id).execute();
    await tx.deleteFrom('bookings').where('id', '=', row.id).execute();
    return { id: row.id, object: 'booking' as const, deleted: true as const };
  });
}
