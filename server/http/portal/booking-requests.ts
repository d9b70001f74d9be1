import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { BookingPageSettings, BookingPageUpdate } from '../../../shared/schemas/booking-page';
import {
  BookingRequest,
  BookingRequestListQuery,
  PHOTO_TYPES,
  RequestDecline,
  RequestSchedule,
} from '../../../shared/schemas/booking-request';
import { listOf } from '../../../shared/schemas/common';
import type { AppContext } from '../../context';
import { getBookingPage, updateBookingPage } from '../../domain/booking-page';
import { getPhoto } from '../../domain/booking-photos';
import * as decisions from '../../domain/booking-request-decisions';
import { getBookingRequest, listBookingRequests } from '../../domain/booking-requests';
import { commonErrors, PortalParams } from '../schemas';

const IdParams = PortalParams.extend({
  id: z.string().meta({ description: 'The request’s booking id (bkg_…).' }),
});
const PhotoParams = IdParams.extend({
  photo_id: z.string().meta({ description: 'The photo’s id (pho_…).' }),
});
const tags = ['scheduling'];

const photoResponse = {
  description: 'The photo as the customer sent it.',
  content: Object.fromEntries(
    PHOTO_TYPES.map((type) => [type, { schema: z.any().meta({ type: 'string', format: 'binary' }) }]),
  ),
};

/**
 * The owner's side of booking requests (docs/booking-requests-and-reviews.md) and the booking page
 * settings. The portal key or the signed-in UI reads them; answering and changing them is a write
 * (Platform plan). Customers never reach these routes: their side is the client hub's.
 */
export function portalBookingRequestRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/booking-requests',
      {
        schema: {
          tags,
          summary: 'List booking requests',
          description:
            'Requests from the client hub and the public booking page, newest first. status=open lists the ones waiting for an answer.',
          params: PortalParams,
          querystring: BookingRequestListQuery,
          response: { 200: listOf(BookingRequest), ...commonErrors },
        },
      },
      (request) => listBookingRequests(ctx, request.auth.account.id, request.query),
    );

    app.get(
      '/booking-requests/:id',
      {
        schema: {
          tags,
          summary: 'Get a booking request',
          params: IdParams,
          response: { 200: BookingRequest, ...commonErrors },
        },
      },
      (request) => getBookingRequest(ctx, request.auth.account.id, request.params.id),
    );

    app.get(
      '/booking-requests/:id/photos/:photo_id',
      {
        schema: {
          tags,
          summary: 'A photo sent with a booking request',
          params: PhotoParams,
          response: { 200: photoResponse, ...commonErrors },
        },
      },
      async (request, reply) => {
        const { params } = request;
        const photo = await getPhoto(ctx, request.auth.account.id, params.id, params.photo_id);
        return reply
          .type(photo.content_type)
          .header('Cache-Control', 'private, max-age=3600')
          .send(photo.bytes);
      },
    );

    const answers = [
      [
        'confirm',
        'Confirm a booking request',
        'From open. Confirms its booking at the customer’s first choice, or at start/end when sent; no job yet.',
        decisions.confirmRequest,
      ],
      [
        'convert-to-job',
        'Turn a booking request into a job',
        'From open. Confirms its booking and schedules a job at the request’s place, with the assignees sent.',
        decisions.convertRequestToJob,
      ],
    ] as const;
    for (const [action, summary, description, run] of answers) {
      app.post(
        `/booking-requests/:id/${action}`,
        {
          schema: {
            tags,
            summary,
            description,
            params: IdParams,
            body: RequestSchedule.nullish(),
            response: { 200: BookingRequest, ...commonErrors },
          },
        },
        (request) => run(ctx, request.auth.account.id, request.params.id, request.body ?? {}),
      );
    }

    app.post(
      '/booking-requests/:id/convert-to-quote',
      {
        schema: {
          tags,
          summary: 'Turn a booking request into a quote',
          description:
            'From open. Makes a draft quote for the service (its booking page price, or 0 to fill in) and closes the booking.',
          params: IdParams,
          response: { 200: BookingRequest, ...commonErrors },
        },
      },
      (request) => decisions.convertRequestToQuote(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/booking-requests/:id/decline',
      {
        schema: {
          tags,
          summary: 'Decline a booking request',
          description: 'From open. Cancels its booking and e-mails the message to the customer.',
          params: IdParams,
          body: RequestDecline,
          response: { 200: BookingRequest, ...commonErrors },
        },
      },
      (request) => decisions.declineRequest(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.get(
      '/booking-page',
      {
        schema: {
          tags: ['settings'],
          summary: 'Get the booking page settings',
          description:
            'Whether the public booking page is on, its services (durations, prices) and the hours offered.',
          params: PortalParams,
          response: { 200: BookingPageSettings, ...commonErrors },
        },
      },
      (request) => getBookingPage(ctx, request.auth.account.id),
    );

    app.put(
      '/booking-page',
      {
        schema: {
          tags: ['settings'],
          summary: 'Change the booking page settings',
          description:
            'Replaces them as a whole. Hours are wall-clock times in the business’s time zone (Config.timezone). A service sent with its id keeps it; one without gets a new id.',
          params: PortalParams,
          body: BookingPageUpdate,
          response: { 200: BookingPageSettings, ...commonErrors },
        },
      },
      (request) => updateBookingPage(ctx, request.auth.account.id, request.body),
    );
  };
}
