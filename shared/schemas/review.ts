import { z } from 'zod';
import { DateOnly, Email, ListQuery, Timestamp, text } from './common';
import { CustomerRef, DateOrInstant, InstantInput } from './job';

export const Rating = z.number().int().min(1).max(5).meta({ example: 5 });

export const Review = z
  .object({
    id: z.string().meta({ example: 'rev_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('review'),
    rating: Rating,
    comment: z.string().nullable(),
    customer: CustomerRef.nullable(),
    job: z.object({ id: z.string(), job_number: z.string() }).nullable(),
    source: z.string().nullable().meta({ example: 'google' }),
    received_at: Timestamp,
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Review' });
export type Review = z.infer<typeof Review>;

const Source = text().toLowerCase().min(1).max(40).meta({ example: 'google' });

export const ReviewCreate = z
  .strictObject({
    rating: Rating,
    comment: text({ multiline: true }).max(5000).nullish(),
    customer_id: z
      .string()
      .min(1)
      .optional()
      .meta({ description: 'The customer (cus_…); or customer_email.' }),
    customer_email: Email.optional().meta({ description: 'An unknown e-mail creates the customer.' }),
    customer_name: text().min(1).max(200).optional(),
    job_number: z
      .string()
      .min(1)
      .optional()
      .meta({ description: "The job reviewed (J-0001 or its id); its customer is the reviewer's default." }),
    source: Source.default('manual'),
    received_at: InstantInput.optional().meta({ description: 'Defaults to now.' }),
  })
  .meta({ id: 'ReviewCreate' });
export type ReviewCreate = z.input<typeof ReviewCreate>;

export const ReviewUpdate = z
  .strictObject({
    rating: Rating,
    comment: text({ multiline: true }).max(5000).nullable(),
    source: Source,
    received_at: InstantInput,
  })
  .partial()
  .meta({ id: 'ReviewUpdate' });
export type ReviewUpdate = z.infer<typeof ReviewUpdate>;

export const ReviewListQuery = ListQuery.extend({
  rating: z.coerce.number().int().min(1).max(5).optional(),
  source: Source.optional(),
  from: DateOrInstant.optional().meta({ description: 'Received at or after this.' }),
  to: DateOrInstant.optional().meta({ description: 'Received before this (a date: that day included).' }),
});
export type ReviewListQuery = z.infer<typeof ReviewListQuery>;

const Average = z
  .number()
  .nullable()
  .meta({ description: 'Average rating, 2 decimals; null without reviews.' });

export const ReviewDashboard = z
  .object({
    object: z.literal('review_dashboard'),
    count: z.number().int(),
    average_rating: Average,
    distribution: z.object({
      '1': z.number().int(),
      '2': z.number().int(),
      '3': z.number().int(),
      '4': z.number().int(),
      '5': z.number().int(),
    }),
    this_month: z.object({
      month: z.string().meta({ example: '2026-11' }),
      count: z.number().int(),
      average_rating: Average,
    }),
    last_month: z.object({ month: z.string(), count: z.number().int(), average_rating: Average }),
    by_source: z.array(
      z.object({ source: z.string().nullable(), count: z.number().int(), average_rating: Average }),
    ),
    recent: z.array(Review).meta({ description: 'The 5 latest reviews.' }),
    needs_response: z
      .array(Review)
      .meta({ description: 'Ratings of 1 or 2 from the last 90 days, latest first (at most 10).' }),
  })
  .meta({ id: 'ReviewDashboard' });
export type ReviewDashboard = z.infer<typeof ReviewDashboard>;

export const VelocityQuery = z.object({
  weeks: z.coerce.number().int().min(1).max(104).default(12),
});

export const ReviewVelocity = z
  .object({
    object: z.literal('review_velocity'),
    timezone: z.string(),
    weeks: z.array(
      z.object({
        week_start: DateOnly.meta({ description: "Monday, in the account's time zone." }),
        count: z.number().int(),
        average_rating: Average,
      }),
    ),
    trend: z.object({
      per_week: z.number().meta({ description: 'Reviews a week over these weeks.' }),
      previous_per_week: z.number().meta({ description: 'Reviews a week over as many weeks before.' }),
      change: z
        .number()
        .nullable()
        .meta({ description: 'Relative change (0.25 = +25 %); null when the previous period had none.' }),
      direction: z.enum(['up', 'down', 'flat']),
    }),
  })
  .meta({ id: 'ReviewVelocity' });
export type ReviewVelocity = z.infer<typeof ReviewVelocity>;

/** A customer answers the review request a completed visit sent them (the client hub). */
export const CustomerReviewInput = z
  .strictObject({
    review_request_id: z.string().min(1),
    rating: Rating,
    comment: text({ multiline: true }).max(5000).nullish(),
  })
  .meta({ id: 'CustomerReviewInput' });
export type CustomerReviewInput = z.input<typeof CustomerReviewInput>;
