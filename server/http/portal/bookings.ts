import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  Booking,
  BookingConfirm,
  BookingCreate,
  BookingListQuery,
  BookingUpdate,
} from '../../../shared/schemas/booking';
import { listOf } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import * as bookings from '../../domain/bookings';
import { commonErrors, PortalParams } from '../schemas';

const IdParams = PortalParams.extend({ id: z.string().meta({ description: 'The booking id (bkg_…).' }) });
const tags = ['scheduling'];

export function portalBookingRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/bookings',
      {
        schema: {
          tags,
          summary: 'List bookings',
          description: 'Newest first. Filter by status, start (from/to) or customer.',
          params: PortalParams,
          querystring: BookingListQuery,
          response: { 200: listOf(Booking), ...commonErrors },
        },
      },
      (request) => bookings.listBookings(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/bookings',
      {
        schema: {
          tags,
          summary: 'Record a booking request',
          description: 'Starts pending and sends booking.created. source defaults to "portal".',
          params: PortalParams,
          body: BookingCreate,
          response: { 201: Booking, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(await bookings.createBooking(ctx, request.auth.account.id, request.body, 'portal')),
    );

    app.get(
      '/bookings/:id',
      {
        schema: {
          tags,
          summary: 'Get a booking',
          params: IdParams,
          response: { 200: Booking, ...commonErrors },
        },
      },
      (request) => bookings.getBooking(ctx, request.auth.account.id, request.params.id),
    );

    app.patch(
      '/bookings/:id',
      {
        schema: {
          tags,
          summary: 'Change a booking',
          description: 'Pending or confirmed bookings only; the job it created moves with it.',
          params: IdParams,
          body: BookingUpdate,
          response: { 200: Booking, ...commonErrors },
        },
      },
      (request) => bookings.updateBooking(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.post(
      '/bookings/:id/confirm',
      {
        schema: {
          tags,
          summary: 'Confirm a booking',
          description: 'From pending. Creates a scheduled job for it unless create_job is false.',
          params: IdParams,
          body: BookingConfirm.nullish(),
          response: { 200: Booking, ...commonErrors },
        },
      },
      (request) =>
        bookings.confirmBooking(ctx, request.auth.account.id, request.params.id, request.body ?? {}),
    );

    const actions = [
      [
        'cancel',
        'Cancel a booking',
        'From pending or confirmed; an open job it created is cancelled too.',
        bookings.cancelBooking,
      ],
      [
        'complete',
        'Complete a booking',
        'From confirmed; its job is completed too.',
        bookings.completeBooking,
      ],
      ['no_show', 'Mark a no-show', 'From confirmed; its open job is cancelled.', bookings.markNoShow],
    ] as const;
    for (const [action, summary, description, run] of actions) {
      app.post(
        `/bookings/:id/${action}`,
        {
          schema: {
            tags,
            summary,
            description,
            params: IdParams,
            response: { 200: Booking, ...commonErrors },
          },
        },
        (request) => run(ctx, request.auth.account.id, request.params.id),
      );
    }
  };
}
