import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  Booking,
  BookingConfirm,
  BookingCreate,
  BookingListQuery,
  BookingUpdate,
} from '../../../shared/schemas/booking';
import { listOf } from '../../../shared/schemas/common';
import { Deleted, V1ClientFilter, V1ListFilters, v1CreateBody } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import * as bookings from '../../domain/bookings';
import { commonErrors } from '../schemas';
import { optionalWithExample, withExample } from './examples';
import { clientFilter, IdParams, v1Tag, withClientReference } from './params';

const tags = v1Tag('bookings');
const BookingCreateV1 = v1CreateBody(BookingCreate, 'BookingCreateV1', { required: true });
const Params = IdParams('booking', 'bkg_01jd3k5x2m9q7r8s6t4v2w0y1z');
const V1BookingListQuery = BookingListQuery.extend({ ...V1ListFilters.shape, ...V1ClientFilter.shape });
/** Bookings made through this API say so unless the caller names another source (a widget, the phone). */
const V1_SOURCE = 'v1';

const createExample = {
  customer_email: 'ada@example.com',
  customer_name: 'Ada Lovelace',
  service: 'Window cleaning',
  start: '2026-11-26T15:00:00Z',
  end: '2026-11-26T16:30:00Z',
  source: 'website',
};

const finishing = [
  {
    path: 'cancel',
    summary: 'Cancel a booking',
    description: 'pending or confirmed → cancelled; its open job is cancelled with it.',
    run: bookings.cancelBooking,
  },
  {
    path: 'complete',
    summary: 'Complete a booking',
    description: 'confirmed → completed.',
    run: bookings.completeBooking,
  },
  {
    path: 'no_show',
    summary: 'Mark a booking as a no-show',
    description: 'confirmed → no_show.',
    run: bookings.markNoShow,
  },
] as const;

export function v1BookingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/bookings',
      {
        schema: {
          tags,
          summary: 'List bookings',
          description:
            'Newest first, keyset-paginated. Filter by status, client_id, customer_email, start (from, to) and created_after, created_before, updated_since.',
          querystring: V1BookingListQuery,
          response: { 200: listOf(Booking), ...commonErrors },
        },
      },
      (request) => bookings.listBookings(ctx, request.auth.account.id, clientFilter(request.query)),
    );

    app.get(
      '/bookings/:id',
      {
        schema: {
          tags,
          summary: 'Get a booking',
          params: Params,
          response: { 200: Booking, ...commonErrors },
        },
      },
      (request) => bookings.getBooking(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/bookings',
      {
        schema: {
          tags,
          summary: 'Create a booking',
          description:
            'A pending booking for a client named by e-mail (created if new); sends the booking.created webhook. source defaults to "v1".',
          body: withExample(BookingCreateV1, createExample),
          response: { 201: Booking, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await bookings.createBooking(
              ctx,
              request.auth.account.id,
              await withClientReference(ctx, request.auth.account.id, request.body),
              V1_SOURCE,
            ),
          ),
    );

    app.patch(
      '/bookings/:id',
      {
        schema: {
          tags,
          summary: 'Update a booking',
          description: 'Pending or confirmed bookings only; a confirmed booking moves its job along.',
          params: Params,
          body: withExample(BookingUpdate, { start: '2026-11-27T15:00:00Z', end: '2026-11-27T16:30:00Z' }),
          response: { 200: Booking, ...commonErrors },
        },
      },
      (request) => bookings.updateBooking(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/bookings/:id',
      {
        schema: {
          tags,
          summary: 'Delete a pending booking',
          description: 'Only a pending booking; a confirmed one is cancelled instead (409 invalid_state).',
          params: Params,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      (request) => bookings.deleteBooking(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/bookings/:id/confirm',
      {
        schema: {
          tags,
          summary: 'Confirm a booking',
          description:
            'pending → confirmed. Creates a scheduled job for it unless create_job is false; the booking then carries job_id.',
          params: Params,
          body: optionalWithExample(BookingConfirm, { create_job: true, assignees: ['Sam'] }),
          response: { 200: Booking, ...commonErrors },
        },
      },
      (request) =>
        bookings.confirmBooking(ctx, request.auth.account.id, request.params.id, request.body ?? {}),
    );

    for (const action of finishing) {
      app.post(
        `/bookings/:id/${action.path}`,
        {
          schema: {
            tags,
            summary: action.summary,
            description: action.description,
            params: Params,
            response: { 200: Booking, ...commonErrors },
          },
        },
        (request) => action.run(ctx, request.auth.account.id, request.params.id),
      );
    }
  };
}
