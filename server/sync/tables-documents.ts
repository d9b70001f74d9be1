import * as statusRanks from './status-ranks';
import { ownAccount, type SyncedTable } from './synced-table';

const viaDocument = (r: string) =>
  `coalesce((SELECT account_id FROM invoices WHERE id = ${r}.document_id), (SELECT account_id FROM quotes WHERE id = ${r}.document_id))`;

/** The tables a document line, tax or message may belong to. */
export const DOCUMENTS = ['invoices', 'quotes'];

/** Quotes and invoices with their lines, taxes and payments: totals are derived (device/derived.ts). */
export const DOCUMENT_TABLES: SyncedTable[] = [
  {
    name: 'quotes',
    pk: ['id'],
    account: ownAccount,
    refs: { customer_id: 'customers' },
    derived: ['subtotal_cents', 'tax_total_cents', 'total_cents'],
    ranks: { status: statusRanks.QUOTE_RANKS },
    writable: [
      'id',
      'account_id',
      'number',
      'customer_id',
      'status',
      'currency',
      'issue_date',
      'valid_until',
      'notes',
      'sent_at',
      'accepted_at',
      'declined_at',
      'converted_at',
      'job_id',
      'created_at',
      'updated_at',
      'property_id',
    ],
    parents: { customer_id: ['customers'], job_id: ['jobs'], property_id: ['properties'] },
  },
  {
    name: 'invoices',
    pk: ['id'],
    account: ownAccount,
    refs: { customer_id: 'customers' },
    derived: ['subtotal_cents', 'tax_total_cents', 'total_cents', 'amount_paid_cents'],
    // Payments decide paid and partially paid (derived); what the owner sets ranks draft < sent < void.
    ranks: { status: statusRanks.INVOICE_RANKS },
    writable: [
      'id',
      'account_id',
      'number',
      'customer_id',
      'status',
      'currency',
      'issue_date',
      'due_date',
      'notes',
      'quote_id',
      'job_id',
      'sent_at',
      'paid_at',
      'voided_at',
      'created_at',
      'updated_at',
      'property_id',
    ],
    parents: {
      customer_id: ['customers'],
      quote_id: ['quotes'],
      job_id: ['jobs'],
      property_id: ['properties'],
    },
  },
  {
    name: 'document_lines',
    pk: ['document_id', 'position'],
    account: viaDocument,
    writable: ['document_id', 'position', 'description', 'quantity', 'unit_price', 'amount_cents'],
    parents: { document_id: DOCUMENTS },
    ownedVia: 'document_id',
  },
  {
    name: 'document_taxes',
    pk: ['document_id', 'position'],
    account: viaDocument,
    derived: ['amount_cents'],
    writable: ['document_id', 'position', 'name', 'rate'],
    parents: { document_id: DOCUMENTS },
    ownedVia: 'document_id',
  },
  {
    name: 'payments',
    pk: ['id'],
    account: ownAccount,
    appendOnly: true,
    writable: ['id', 'account_id', 'invoice_id', 'amount_cents', 'method', 'paid_at', 'created_at'],
    parents: { invoice_id: ['invoices'] },
  },
];
