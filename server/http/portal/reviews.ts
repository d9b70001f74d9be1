import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOf } from '../../../shared/schemas/common';
import {
  Review,
  ReviewCreate,
  ReviewDashboard,
  ReviewListQuery,
  ReviewVelocity,
  VelocityQuery,
} from '../../../shared/schemas/review';
import type { AppContext } from '../../context';
import * as reviews from '../../domain/reviews';
import { commonErrors, PortalParams } from '../schemas';

const tags = ['reviews'];

export function portalReviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reviews',
      {
        schema: {
          tags,
          summary: 'List reviews',
          description: 'Newest first. Filter by rating, source or when received (from/to).',
          params: PortalParams,
          querystring: ReviewListQuery,
          response: { 200: listOf(Review), ...commonErrors },
        },
      },
      (request) => reviews.listReviews(ctx, request.auth.account.id, request.query),
    );

    app.post(
      '/reviews',
      {
        schema: {
          tags,
          summary: 'Record a review',
          description:
            'By customer_email (an unknown one creates the customer) and/or job_number. Sends review.received.',
          params: PortalParams,
          body: ReviewCreate,
          response: { 201: Review, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await reviews.createReview(ctx, request.auth.account.id, request.body)),
    );

    app.get(
      '/reviews/dashboard',
      {
        schema: {
          tags,
          summary: 'Reviews dashboard',
          description:
            'Average and distribution, this month against last (account time zone), by source, the latest five and the low ratings to answer.',
          params: PortalParams,
          response: { 200: ReviewDashboard, ...commonErrors },
        },
      },
      (request) => reviews.reviewDashboard(ctx, request.auth.account.id),
    );

    app.get(
      '/reviews/velocity',
      {
        schema: {
          tags,
          summary: 'Review velocity',
          description:
            'Reviews per week (Monday-based, account time zone) for the last `weeks` weeks (default 12, at most 104) and the trend against the weeks before.',
          params: PortalParams,
          querystring: VelocityQuery,
          response: { 200: ReviewVelocity, ...commonErrors },
        },
      },
      (request) => reviews.reviewVelocity(ctx, request.auth.account.id, request.query.weeks),
    );
  };
}
