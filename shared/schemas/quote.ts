import { z } from 'zod';
import { DateOnly, ListQuery, Timestamp } from './common';
import {
  documentContentFields,
  documentCreateFields,
  documentListFilters,
  documentUpdateFields,
  withCustomerNameRule,
} from './document';
import { recordPlaceField } from './property';

export const StoredQuoteStatus = z.enum(['draft', 'sent', 'accepted', 'declined', 'converted']);
export type StoredQuoteStatus = z.infer<typeof StoredQuoteStatus>;

/** What the API shows: the stored status, or `expired` when a sent quote is past valid_until. */
export const QuoteStatus = z
  .enum(['draft', 'sent', 'accepted', 'declined', 'converted', 'expired'])
  .meta({ id: 'QuoteStatus' });
export type QuoteStatus = z.infer<typeof QuoteStatus>;

export const Quote = z
  .object({
    id: z.string().meta({ example: 'quo_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('quote'),
    number: z.string().meta({ example: 'Q-0001' }),
    status: QuoteStatus,
    ...documentContentFields,
    currency: z.string().meta({ example: 'CAD' }),
    issue_date: DateOnly,
    valid_until: DateOnly,
    notes: z.string().nullable(),
    ...recordPlaceField,
    job_id: z.string().nullable().meta({ description: 'The job created when the quote was converted.' }),
    sent_at: Timestamp.nullable(),
    accepted_at: Timestamp.nullable(),
    declined_at: Timestamp.nullable(),
    converted_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Quote' });
export type Quote = z.infer<typeof Quote>;

export const QuoteCreate = z
  .strictObject({
    ...documentCreateFields,
    valid_days: z.number().int().min(1).max(365).optional().meta({
      description: "Days from issue_date to valid_until; defaults to the config's default_valid_days.",
    }),
  })
  .meta({ id: 'QuoteCreate' });
export type QuoteCreate = z.infer<typeof QuoteCreate>;

export const QuoteUpdate = withCustomerNameRule(
  z.strictObject({ ...documentUpdateFields, valid_until: DateOnly.optional() }),
).meta({ id: 'QuoteUpdate' });
export type QuoteUpdate = z.infer<typeof QuoteUpdate>;

export const QuoteListQuery = ListQuery.extend({
  status: QuoteStatus.optional().meta({
    description: 'expired: sent quotes past valid_until; sent excludes those.',
  }),
  ...documentListFilters,
});
export type QuoteListQuery = z.infer<typeof QuoteListQuery>;

/** The record of a customer's approval on the client hub, as the accepted quote's PDF prints it. */
export const QuoteApproval = z
  .object({
    approval: z
      .object({
        name: z.string().meta({ description: 'The name the customer typed.', example: 'Maya Chen' }),
        at: Timestamp.meta({ description: 'When they approved it.' }),
        ip: z.string().nullable().meta({ description: 'The address they approved it from.' }),
      })
      .nullable()
      .meta({ description: 'Null when nobody approved it on the client hub (the owner accepted it).' }),
  })
  .meta({ id: 'QuoteApproval' });
export type QuoteApproval = z.infer<typeof QuoteApproval>;
