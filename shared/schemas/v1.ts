import { z } from 'zod';
import { Email } from './common';
import { InstantInput } from './job';

export const ClientId = z
  .string()
  .regex(/^cus_[0-9a-z]{26}$/, 'must be a client id (cus_…)')
  .meta({ example: 'cus_01jd3k5x2m9q7r8s6t4v2w0y1z' });

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
  client_id: ClientId.optional().meta({ description: "Only this client's records." }),
});

interface ClientReference {
  client_id?: string | undefined;
  customer_email?: string | undefined;
}
/** An object type without its customer_email (homomorphic, so a strict object's known keys survive). */
type WithoutEmail<T> = { [K in keyof T as K extends 'customer_email' ? never : K]: T[K] };
export type V1CreateBody<T extends z.ZodType> = WithoutEmail<z.output<T>> & ClientReference;

/**
 * The v1 form of a create body that belongs to a client: the client is named by `client_id` (an
 * id from /clients, Stripe's way) or by `customer_email` (created if new); both may be sent if
 * they agree. `required`: one of them must be there.
 */
export function v1CreateBody<T extends z.ZodObject>(schema: T, id: string, options: { required: boolean }) {
  // safeExtend keeps the schema's own refinements; its types refuse loosening customer_email, which
  // is exactly the point here, so the result is typed by hand.
  const body = (schema as z.ZodObject)
    .safeExtend({
      client_id: ClientId.optional().meta({
        description: 'The client (cus_…); or name it by customer_email.',
      }),
      customer_email: Email.optional().meta({
        description: 'The client by e-mail, created if new; or name it by client_id.',
      }),
    })
    .superRefine((value, ctx) => {
      if (options.required && value.client_id === undefined && value.customer_email === undefined) {
        ctx.addIssue({ code: 'custom', path: ['client_id'], message: 'send client_id or customer_email' });
      }
    })
    .meta({ id });
  return body as unknown as z.ZodType<V1CreateBody<T>, WithoutEmail<z.input<T>> & ClientReference>;
}

/** The answer to a DELETE: the id of what is gone. */
export const Deleted = z
  .object({
    id: z.string(),
    object: z.string().meta({ example: 'customer' }),
    deleted: z.literal(true),
  })
  .meta({ id: 'Deleted' });
export type Deleted = z.infer<typeof Deleted>;
