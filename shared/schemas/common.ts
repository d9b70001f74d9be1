import { z } from 'zod';
import { hasAtMostDecimals, MONEY_DECIMALS } from '../money';
import './error-words';

const CONTROL_CHARACTERS = /[\p{Cc}\u2028\u2029]/u;
const CONTROL_CHARACTERS_BUT_LINE_BREAKS = /(?![\t\n\r])\p{Cc}/u;
/** With the u flag a surrogate pair is one code point; only a lone half is in category Cs. */
const LONE_SURROGATE = /\p{Cs}/u;

/**
 * Human text, trimmed. Control characters are refused: in a name, prefix or subject a CR/LF or NUL
 * breaks headers, calendar lines, CSV rows and document numbers (an invoice number once became
 * "I\r\nX: 0010"); multi-line text (notes, messages) may hold line breaks and tabs only. Lone
 * surrogates are not text at all and cannot be stored or printed faithfully.
 */
export function text(options: { multiline?: boolean } = {}) {
  const forbidden = options.multiline ? CONTROL_CHARACTERS_BUT_LINE_BREAKS : CONTROL_CHARACTERS;
  return z
    .string()
    .trim()
    .refine((value) => !forbidden.test(value), {
      message: options.multiline
        ? 'must not contain control characters other than line breaks and tabs'
        : 'must be a single line without control characters',
    })
    .refine((value) => !LONE_SURROGATE.test(value), {
      message: 'must be valid Unicode (it holds a lone surrogate)',
    });
}

/**
 * Dates a small business's records can carry. Year 0001 or 9999 is a typo, and 9999 plus due days
 * would not even fit the YYYY-MM-DD form; the bound leaves a year's arithmetic room either side.
 */
export const EARLIEST_DATE = '1900-01-01';
export const LATEST_DATE = '2199-12-31';
const inDateRange = (date: string) => date.slice(0, 10) >= EARLIEST_DATE && date.slice(0, 10) <= LATEST_DATE;
const dateRangeMessage = `must be between ${EARLIEST_DATE} and ${LATEST_DATE}`;

/** ISO 8601 UTC timestamp, second precision: 2026-11-22T09:30:00Z. */
export const Timestamp = z.iso
  .datetime({ offset: true })
  .refine((value) => Number.isNaN(Date.parse(value)) || inDateRange(new Date(value).toISOString()), {
    message: dateRangeMessage,
  })
  .meta({ example: '2026-11-22T09:30:00Z' });
export const DateOnly = z.iso
  .date()
  .refine(inDateRange, { message: dateRangeMessage })
  .meta({ example: '2026-11-22' });

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
