import { z } from 'zod';
import { InstantInput } from './job';

/**
 * A timestamp filter in a v1 query string: any offset is accepted and brought to the stored
 * second-precision UTC form, so it compares correctly with stored timestamps.
 */
const TimestampFilter = (description: string) =>
  InstantInput.meta({ description, example: '2026-11-01T00:00:00Z' });

/** Filters every v1 list takes besides limit and cursor (contract part 3). */
export const V1ListFilters = z.object({
  created_after: TimestampFilter('Only records created at or after this instant.').optional(),
  created_before: TimestampFilter('Only records created before this instant.').optional(),
  updated_since: TimestampFilter('Only records changed at or after this instant (for syncing).').optional(),
});
export type V1ListFilters = z.infer<typeof V1ListFilters>;

/** The client filter of v1 lists of records that belong to a client (jobs, quotes, invoices, bookings, reviews). */
export const V1ClientFilter = z.object({
  client_id: z
    .string()
    .regex(/^cus_[0-9a-z]{26}$/, 'must be a client id (cus_…)')
    .optional()
    .meta({ description: "Only this client's records.", example: 'cus_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
});

/** The answer to a DELETE: the id of what is gone. */
export const Deleted = z
  .object({
    id: z.string(),
    object: z.string().meta({ example: 'customer' }),
    deleted: z.literal(true),
  })
  .meta({ id: 'Deleted' });
export type Deleted = z.infer<typeof Deleted>;
