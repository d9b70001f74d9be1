import { z } from 'zod';
import { hasAtMostDecimals, MONEY_DECIMALS } from '../money';

/** ISO 8601 UTC timestamp, second precision: 2026-11-22T09:30:00Z. */
export const Timestamp = z.iso.datetime({ offset: true }).meta({ example: '2026-11-22T09:30:00Z' });
export const DateOnly = z.iso.date().meta({ example: '2026-11-22' });

/** Money in major units with at most two decimals (49.99). */
export const Money = z
  .number()
  .refine((n) => hasAtMostDecimals(n, MONEY_DECIMALS), { message: 'must have at most 2 decimal places' })
  .meta({ example: 49.99 });
export const PositiveMoney = Money.refine((n) => n > 0, { message: 'must be greater than 0' });

export const Email = z.email().max(254).meta({ example: 'sam@example.com' });

export const ErrorBody = z
  .object({
    error: z.object({
      type: z.string(),
      code: z.string(),
      message: z.string(),
      param: z.string().optional(),
      details: z.unknown().optional(),
      request_id: z.string(),
    }),
  })
  .meta({ id: 'Error' });

export const ListQuery = z.object({
  limit: z.coerce.number().int().min(1).max(100).default(25).meta({ description: 'Page size, 1 to 100.' }),
  cursor: z.string().min(1).optional().meta({ description: "The previous page's pagination.next_cursor." }),
});

export const Pagination = z.object({
  has_more: z.boolean(),
  next_cursor: z.string().nullable(),
});

export function listOf<T extends z.ZodType>(item: T) {
  return z.object({ data: z.array(item), pagination: Pagination });
}

/** "true"/"false" in a query string (z.coerce.boolean would read "false" as true). */
export const QueryBoolean = z.enum(['true', 'false']).transform((v) => v === 'true');

export const OkBody = z.object({ ok: z.literal(true) });
