import { z } from 'zod';
import { DateOnly, ListQuery, Money, PositiveMoney, Timestamp, text } from './common';
import {
  documentContentFields,
  documentCreateFields,
  documentListFilters,
  documentUpdateFields,
  withCustomerNameRule,
} from './document';
import { recordPlaceField } from './property';

export const StoredInvoiceStatus = z.enum(['draft', 'sent', 'partially_paid', 'paid', 'void']);
export type StoredInvoiceStatus = z.infer<typeof StoredInvoiceStatus>;

/** What the API shows: the stored status, or `overdue` when an open invoice is past its due date. */
export const InvoiceStatus = z
  .enum(['draft', 'sent', 'partially_paid', 'paid', 'void', 'overdue'])
  .meta({ id: 'InvoiceStatus' });
export type InvoiceStatus = z.infer<typeof InvoiceStatus>;

export const Payment = z
  .object({
    id: z.string().meta({ example: 'pay_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    amount: Money,
    method: z.string().nullable(),
    paid_at: Timestamp,
    created_at: Timestamp,
  })
  .meta({ id: 'Payment' });
export type Payment = z.infer<typeof Payment>;

export const Invoice = z
  .object({
    id: z.string().meta({ example: 'inv_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('invoice'),
    number: z.string().meta({ example: 'INV-0001' }),
    status: InvoiceStatus,
    ...documentContentFields,
    amount_paid: Money,
    balance: Money,
    currency: z.string().meta({ example: 'CAD' }),
    issue_date: DateOnly,
    due_date: DateOnly,
    payments: z.array(Payment),
    notes: z.string().nullable(),
    ...recordPlaceField,
    quote_id: z.string().nullable(),
    job_id: z.string().nullable(),
    sent_at: Timestamp.nullable(),
    paid_at: Timestamp.nullable(),
    voided_at: Timestamp.nullable(),
    created_at: Timestamp,
    updated_at: Timestamp,
  })
  .meta({ id: 'Invoice' });
export type Invoice = z.infer<typeof Invoice>;

export const DueDays = z.number().int().min(0).max(365);

export const InvoiceCreate = z
  .strictObject({
    ...documentCreateFields,
    due_days: DueDays.optional().meta({
      description: "Days from issue_date to due_date; defaults to the config's default_due_days.",
    }),
  })
  .meta({ id: 'InvoiceCreate' });
export type InvoiceCreate = z.infer<typeof InvoiceCreate>;

export const InvoiceUpdate = withCustomerNameRule(
  z.strictObject({ ...documentUpdateFields, due_date: DateOnly.optional() }),
).meta({ id: 'InvoiceUpdate' });
export type InvoiceUpdate = z.infer<typeof InvoiceUpdate>;

export const PaymentCreate = z
  .strictObject({
    amount: PositiveMoney.meta({ description: 'At most the balance.', example: 100 }),
    method: text().min(1).max(40).optional().meta({ example: 'card' }),
    paid_at: Timestamp.optional().meta({ description: 'Defaults to now; cannot be in the future.' }),
  })
  .meta({ id: 'PaymentCreate' });
export type PaymentCreate = z.infer<typeof PaymentCreate>;

/** POST /invoices/{number}/paid: the amount is the balance; method and time are optional. */
export const MarkPaid = PaymentCreate.omit({ amount: true }).meta({ id: 'MarkPaid' });
export type MarkPaid = z.infer<typeof MarkPaid>;

export const InvoiceListQuery = ListQuery.extend({
  status: InvoiceStatus.optional().meta({
    description: 'overdue: open invoices past their due date; sent and partially_paid exclude those.',
  }),
  ...documentListFilters,
});
export type InvoiceListQuery = z.infer<typeof InvoiceListQuery>;
