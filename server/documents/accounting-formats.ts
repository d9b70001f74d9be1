import { fromCents } from '../../shared/money';

/**
 * The column sets of the accountant's import files (docs/import-export.md says where each was
 * found). A file must keep the documented header names: QuickBooks Online and Xero map their
 * columns by them.
 */

export interface ExportedInvoiceLine {
  invoice: string;
  status: string;
  issueDate: string;
  dueDate: string;
  currency: string;
  memo: string | null;
  customer: string;
  email: string | null;
  address: string | null;
  line: number;
  description: string;
  quantity: string;
  unitPrice: string;
  amountCents: number;
  /** This line's share of the invoice's tax (all its taxes together). */
  taxCents: number;
  /** The invoice's taxes, "GST 5% + PST 7%"; empty when it charges none. */
  taxName: string;
}

export interface ExportedPayment {
  id: string;
  invoice: string;
  customer: string;
  email: string | null;
  paidOn: string;
  method: string | null;
  amountCents: number;
  currency: string;
}

type DateFormat = 'mdy' | 'dmy' | 'ymd';
interface Options {
  dateFormat: DateFormat;
  accountCode: string;
}

interface Format {
  dateFormat: DateFormat;
  invoiceHeaders: string[];
  invoiceRow(line: ExportedInvoiceLine, options: Options): unknown[];
  paymentHeaders: string[];
  paymentRow(payment: ExportedPayment, options: Options): unknown[];
}

export function formatDate(date: string, format: DateFormat): string {
  const [y, m, d] = date.split('-');
  if (format === 'mdy') return `${m}/${d}/${y}`;
  if (format === 'dmy') return `${d}/${m}/${y}`;
  return date;
}

const money = (cents: number) => fromCents(cents).toFixed(2);

/** QuickBooks Online's invoice import (Settings > Import data > Invoices), its default column names. */
export const QUICKBOOKS_INVOICE_HEADERS = [
  'InvoiceNo',
  'Customer',
  'InvoiceDate',
  'DueDate',
  'Terms',
  'Location',
  'Memo',
  'Item(Product/Service)',
  'ItemDescription',
  'ItemQuantity',
  'ItemRate',
  'ItemAmount',
  'ItemTaxCode',
  'ItemTaxAmount',
  'Currency',
  'Service Date',
];

/** QuickBooks Online's bank-transaction upload, its three-column layout. */
export const QUICKBOOKS_PAYMENT_HEADERS = ['Date', 'Description', 'Amount'];

/** Xero's sales invoice import template (Business > Invoices > Import). * marks the required ones. */
export const XERO_INVOICE_HEADERS = [
  '*ContactName',
  'EmailAddress',
  'POAddressLine1',
  'POAddressLine2',
  'POAddressLine3',
  'POAddressLine4',
  'POCity',
  'PORegion',
  'POPostalCode',
  'POCountry',
  '*InvoiceNumber',
  'Reference',
  '*InvoiceDate',
  '*DueDate',
  'Total',
  'InventoryItemCode',
  '*Description',
  '*Quantity',
  '*UnitAmount',
  'Discount',
  '*AccountCode',
  '*TaxType',
  'TaxAmount',
  'TrackingName1',
  'TrackingOption1',
  'TrackingName2',
  'TrackingOption2',
  'Currency',
  'BrandingTheme',
];

/** Xero's bank statement import (CSV), its template's columns. */
export const XERO_PAYMENT_HEADERS = [
  '*Date',
  '*Amount',
  'Payee',
  'Description',
  'Reference',
  'Cheque Number',
];

const paymentText = (p: ExportedPayment) => `Payment for ${p.invoice}${p.method ? ` (${p.method})` : ''}`;

export const FORMATS: Record<'quickbooks' | 'xero' | 'plain', Format> = {
  quickbooks: {
    dateFormat: 'mdy',
    invoiceHeaders: QUICKBOOKS_INVOICE_HEADERS,
    invoiceRow: (l, o) => [
      l.invoice,
      l.customer,
      formatDate(l.issueDate, o.dateFormat),
      formatDate(l.dueDate, o.dateFormat),
      null,
      null,
      l.memo,
      'Services',
      l.description,
      l.quantity,
      l.unitPrice,
      money(l.amountCents),
      l.taxName || 'Exempt',
      money(l.taxCents),
      l.currency,
      null,
    ],
    paymentHeaders: QUICKBOOKS_PAYMENT_HEADERS,
    paymentRow: (p, o) => [
      formatDate(p.paidOn, o.dateFormat),
      `${paymentText(p)}, ${p.customer}`,
      money(p.amountCents),
    ],
  },
  xero: {
    dateFormat: 'dmy',
    invoiceHeaders: XERO_INVOICE_HEADERS,
    invoiceRow: (l, o) => [
      l.customer,
      l.email,
      l.address,
      null,
      null,
      null,
      null,
      null,
      null,
      null,
      l.invoice,
      null,
      formatDate(l.issueDate, o.dateFormat),
      formatDate(l.dueDate, o.dateFormat),
      null,
      null,
      l.description,
      l.quantity,
      l.unitPrice,
      null,
      o.accountCode,
      l.taxName || 'Tax Exempt',
      money(l.taxCents),
      null,
      null,
      null,
      null,
      l.currency,
      null,
    ],
    paymentHeaders: XERO_PAYMENT_HEADERS,
    paymentRow: (p, o) => [
      formatDate(p.paidOn, o.dateFormat),
      money(p.amountCents),
      p.customer,
      paymentText(p),
      p.invoice,
      null,
    ],
  },
  plain: {
    dateFormat: 'ymd',
    invoiceHeaders: [
      'invoice',
      'status',
      'issue_date',
      'due_date',
      'customer',
      'customer_email',
      'line',
      'description',
      'quantity',
      'unit_price',
      'amount',
      'tax',
      'taxes',
      'currency',
    ],
    invoiceRow: (l, o) => [
      l.invoice,
      l.status,
      formatDate(l.issueDate, o.dateFormat),
      formatDate(l.dueDate, o.dateFormat),
      l.customer,
      l.email,
      l.line,
      l.description,
      l.quantity,
      l.unitPrice,
      money(l.amountCents),
      money(l.taxCents),
      l.taxName,
      l.currency,
    ],
    paymentHeaders: [
      'payment',
      'invoice',
      'customer',
      'customer_email',
      'paid_on',
      'method',
      'amount',
      'currency',
    ],
    paymentRow: (p, o) => [
      p.id,
      p.invoice,
      p.customer,
      p.email,
      formatDate(p.paidOn, o.dateFormat),
      p.method,
      money(p.amountCents),
      p.currency,
    ],
  },
};
