import { z } from 'zod';
import { hasAtMostDecimals, QUANTITY_DECIMALS, UNIT_PRICE_DECIMALS } from '../money';
import { DateOnly, Email, Money, text } from './common';
import { TaxRate } from './config';
import { customerReferenceFields } from './customer';
import { placeInputField } from './property';

/**
 * Shapes shared by quotes and invoices: their lines, taxes and customer. The limits keep every
 * document total far inside the range where cents are exact in a JavaScript number.
 */

export const MAX_QUANTITY = 100_000;
export const MAX_UNIT_PRICE = 1_000_000;
export const MAX_LINES = 200;
export const MAX_TAXES = 5;

export const LineItemInput = z
  .strictObject({
    description: text().min(1).max(500).meta({ example: 'Deep clean, 3-bedroom house' }),
    quantity: z
      .number()
      .gt(0)
      .max(MAX_QUANTITY)
      .refine((n) => hasAtMostDecimals(n, QUANTITY_DECIMALS), {
        message: `must have at most ${QUANTITY_DECIMALS} decimal places`,
      })
      .meta({ example: 1.5 }),
    unit_price: z
      .number()
      .min(0)
      .max(MAX_UNIT_PRICE)
      .refine((n) => hasAtMostDecimals(n, UNIT_PRICE_DECIMALS), {
        message: `must have at most ${UNIT_PRICE_DECIMALS} decimal places`,
      })
      .meta({ description: 'In major units of the currency.', example: 120 }),
  })
  .meta({ id: 'LineItemFields' });
export type LineItemInput = z.infer<typeof LineItemInput>;

export const TaxInput = z
  .strictObject({
    name: text().min(1).max(40).meta({ example: 'GST' }),
    rate: TaxRate,
  })
  .meta({ id: 'TaxFields' });
export type TaxInput = z.infer<typeof TaxInput>;

export const LineItems = z.array(LineItemInput).min(1).max(MAX_LINES);
export const Taxes = z.array(TaxInput).max(MAX_TAXES);

export const LineItem = z
  .object({
    description: z.string(),
    quantity: z.number(),
    unit_price: z.number(),
    amount: Money.meta({ description: 'quantity × unit_price, rounded to the cent.' }),
  })
  .meta({ id: 'LineItem' });
export type LineItem = z.infer<typeof LineItem>;

export const Tax = z
  .object({
    name: z.string(),
    rate: z.number(),
    amount: Money.meta({ description: 'rate × subtotal, rounded once to the cent.' }),
  })
  .meta({ id: 'Tax' });
export type Tax = z.infer<typeof Tax>;

export const DocumentCustomer = z
  .object({ id: z.string(), name: z.string(), email: z.string().nullable() })
  .meta({ id: 'DocumentCustomer' });
export type DocumentCustomer = z.infer<typeof DocumentCustomer>;

/** What a quote or invoice shows of its customer, lines and totals (in this order). */
export const documentContentFields = {
  customer: DocumentCustomer,
  items: z.array(LineItem),
  taxes: z.array(Tax),
  subtotal: Money,
  tax_total: Money,
  total: Money,
};

/** Fields of a quote or invoice creation body other than its term (due_days / valid_days). */
export const documentCreateFields = {
  customer_name: text().min(1).max(200).optional().meta({
    description: 'Used when the e-mail is not a customer yet; defaults to the part before the @.',
  }),
  ...customerReferenceFields,
  ...placeInputField,
  items: LineItems,
  taxes: Taxes.optional().meta({ description: "Defaults to the config's default_taxes when absent." }),
  notes: text({ multiline: true }).max(5000).optional(),
  issue_date: DateOnly.optional().meta({
    description: "Defaults to today in the account's time zone.",
    example: '2026-11-22',
  }),
  // Totals are the server's to compute (contract part 3); a client that echoes them is not refused.
  subtotal: z.number().optional().meta({ description: 'Ignored: the server computes totals.' }),
  tax_total: z.number().optional().meta({ description: 'Ignored: the server computes totals.' }),
  total: z.number().optional().meta({ description: 'Ignored: the server computes totals.' }),
};

/** Fields a draft quote or invoice may change (its term field is added by each document). */
export const documentUpdateFields = {
  customer_id: z.string().min(1).optional().meta({ description: 'Moves the draft to this customer.' }),
  customer_email: Email.optional().meta({
    description: 'Moves the draft to this customer (created if new).',
  }),
  customer_name: text().min(1).max(200).optional().meta({
    description: 'Name for a customer created by customer_email; needs customer_email.',
  }),
  ...placeInputField,
  items: LineItems.optional(),
  taxes: Taxes.optional(),
  notes: text({ multiline: true }).max(5000).nullable().optional(),
  issue_date: DateOnly.optional(),
};
export type DocumentUpdateFields = {
  [K in keyof typeof documentUpdateFields]?: z.output<(typeof documentUpdateFields)[K]>;
};

/** customer_name only names the customer that customer_email creates, so an update body may not send it alone. */
export function withCustomerNameRule<
  Body extends z.ZodType<{ customer_name?: string | undefined; customer_email?: string | undefined }>,
>(body: Body): Body {
  return body.refine((patch) => patch.customer_name === undefined || patch.customer_email !== undefined, {
    message: 'customer_name only names a new customer given with customer_email',
    path: ['customer_name'],
  });
}

/** Filters of quote and invoice lists besides their status. */
export const documentListFilters = {
  customer_email: Email.optional(),
  q: text().min(1).max(100).optional().meta({ description: 'Matches number, customer name or e-mail.' }),
};

export const DeletedDocument = z
  .object({ id: z.string(), object: z.enum(['invoice', 'quote']), deleted: z.literal(true) })
  .meta({ id: 'DeletedDocument' });
export type DeletedDocument = z.infer<typeof DeletedDocument>;
