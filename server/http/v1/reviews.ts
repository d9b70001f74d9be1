import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { listOf } from '../../../shared/schemas/common';
import { Review, ReviewCreate, ReviewListQuery, ReviewUpdate } from '../../../shared/schemas/review';
import { Deleted, V1ClientFilter, V1ListFilters, v1CreateBody } from '../../../shared/schemas/v1';
import type { AppContext } from '../../context';
import * as reviews from '../../domain/reviews';
import { commonErrors } from '../schemas';
import { withExample } from './examples';
import { clientFilter, IdParams, v1Tag, withOptionalClientReference } from './params';

const tags = v1Tag('reviews');
const ReviewCreateV1 = v1CreateBody(ReviewCreate, 'ReviewCreateV1', { required: false });
const Params = IdParams('review', 'rev_01jd3k5x2m9q7r8s6t4v2w0y1z');
const V1ReviewListQuery = ReviewListQuery.extend({ ...V1ListFilters.shape, ...V1ClientFilter.shape });

const createExample = {
  rating: 5,
  comment: 'Spotless, and on time.',
  customer_email: 'ada@example.com',
  job_number: 'J-0001',
  source: 'google',
  received_at: '2026-11-22T18:00:00Z',
};

export function v1ReviewRoutes(ctx: AppContext): FastifyPluginAsyncZod {
  return async (app) => {
    app.get(
      '/reviews',
      {
        schema: {
          tags,
          summary: 'List reviews',
          description:
            'Newest first, keyset-paginated. Filter by rating, source, received (from, to), client_id and created_after, created_before, updated_since.',
          querystring: V1ReviewListQuery,
          response: { 200: listOf(Review), ...commonErrors },
        },
      },
      (request) => reviews.listReviews(ctx, request.auth.account.id, clientFilter(request.query)),
    );

    app.get(
      '/reviews/:id',
      {
        schema: {
          tags,
          summary: 'Get a review',
          params: Params,
          response: { 200: Review, ...commonErrors },
        },
      },
      (request) => reviews.getReview(ctx, request.auth.account.id, request.params.id),
    );

    app.post(
      '/reviews',
      {
        schema: {
          tags,
          summary: 'Record a review',
          description:
            'A review received elsewhere (Google, a survey, by phone). Link it to a job (job_number) and/or a client (customer_email, created if new); sends the review.received webhook.',
          body: withExample(ReviewCreateV1, createExample),
          response: { 201: Review, ...commonErrors },
        },
      },
      async (request, reply) =>
        reply
          .status(201)
          .send(
            await reviews.createReview(
              ctx,
              request.auth.account.id,
              await withOptionalClientReference(ctx, request.auth.account.id, request.body),
            ),
          ),
    );

    app.patch(
      '/reviews/:id',
      {
        schema: {
          tags,
          summary: 'Update a review',
          params: Params,
          body: withExample(ReviewUpdate, { comment: 'Spotless, on time, and friendly.' }),
          response: { 200: Review, ...commonErrors },
        },
      },
      (request) => reviews.updateReview(ctx, request.auth.account.id, request.params.id, request.body),
    );

    app.delete(
      '/reviews/:id',
      {
        schema: {
          tags,
          summary: 'Delete a review',
          params: Params,
          response: { 200: Deleted, ...commonErrors },
        },
      },
      (request) => reviews.deleteReview(ctx, request.auth.account.id, request.params.id),
    );
  };
}
