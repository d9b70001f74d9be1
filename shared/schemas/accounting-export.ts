import { z } from 'zod';
import { DateOnly } from './common';

export const AccountingExportQuery = z
  .object({
    from: DateOnly,
    to: DateOnly,
    format: z.enum(['quickbooks', 'xero', 'plain']).meta({
      description:
        "quickbooks and xero: the columns of QuickBooks Online's and Xero's own import files (docs/import-export.md); plain: every field, for any other tool.",
    }),
    records: z.enum(['invoices', 'payments']).meta({
      description:
        'invoices: those issued in the period, one row per line with its share of the tax; payments: those received in it.',
    }),
    date_format: z.enum(['mdy', 'dmy', 'ymd']).optional().meta({
      description:
        'Dates as MM/DD/YYYY, DD/MM/YYYY or YYYY-MM-DD; default: mdy for quickbooks, dmy for xero, ymd for plain.',
    }),
    account_code: z
      .string()
      .trim()
      .min(1)
      .max(20)
      .default('200')
      .meta({ description: "Xero's AccountCode for every line (200 is Xero's default Sales account)." }),
  })
  .refine((q) => q.from <= q.to, { message: 'must not be before from', path: ['to'] })
  .meta({ description: "Both dates inclusive, in the business's time zone, at most 366 days apart." });
export type AccountingExportQuery = z.infer<typeof AccountingExportQuery>;
