import { z } from 'zod';
import { DateOnly, Money } from './common';

export const SALES_TAX_MAX_DAYS = 366;

export const SalesTaxQuery = z
  .object({
    from: DateOnly.optional(),
    to: DateOnly.optional(),
    basis: z.enum(['accrual', 'cash']).default('accrual').meta({
      description:
        "accrual: invoices issued in the period (by issue date); cash: payments received in the period, each carrying its share of its invoice's tax.",
    }),
    format: z
      .enum(['json', 'csv'])
      .default('json')
      .meta({ description: 'csv: the same table as a CSV file.' }),
  })
  .refine((q) => q.from === undefined || q.to === undefined || q.from <= q.to, {
    message: 'must not be before from',
    path: ['to'],
  })
  .meta({ description: "Both dates inclusive, in the business's time zone; default this quarter." });
export type SalesTaxQuery = z.infer<typeof SalesTaxQuery>;

const Count = z.number().int().min(0);

export const SalesTaxLine = z.object({
  name: z.string().meta({ example: 'GST' }),
  rate: z.number().meta({ description: 'A fraction: 0.05 means 5 percent.', example: 0.05 }),
  registration_number: z
    .string()
    .nullable()
    .meta({ description: 'From Settings (tax_registrations), matched by tax name; null when none is set.' }),
  taxable_sales: Money.meta({ description: 'Sales before tax on which this tax was charged.' }),
  tax: Money.meta({ description: 'Tax charged (accrual) or collected (cash).' }),
  invoices: Count,
});
export type SalesTaxLine = z.infer<typeof SalesTaxLine>;

export const SalesTaxReport = z
  .object({
    object: z.literal('sales_tax_report'),
    currency: z.string(),
    basis: z.enum(['accrual', 'cash']),
    from: DateOnly,
    to: DateOnly,
    taxes: z.array(SalesTaxLine).meta({ description: 'One line per tax name and rate, by name then rate.' }),
    totals: z
      .object({
        sales: Money.meta({ description: 'All sales before tax, taxed or not, each invoice counted once.' }),
        untaxed_sales: Money.meta({ description: 'The part of sales on invoices that charge no tax.' }),
        tax: Money,
        total: Money.meta({
          description: "sales + tax: the invoices' totals (accrual) or the payments received (cash).",
        }),
        invoices: Count,
        payments: Count.meta({ description: 'Payments in the period (cash basis; 0 on accrual).' }),
      })
      .meta({ description: "Each line of taxes counts an invoice's sales again; totals count them once." }),
  })
  .meta({ id: 'SalesTaxReport' });
export type SalesTaxReport = z.infer<typeof SalesTaxReport>;
