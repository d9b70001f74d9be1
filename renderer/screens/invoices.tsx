import type { Invoice, InvoiceStatus } from '../../shared/schemas/invoice';
import { portal } from '../lib/api';
import { useFormat } from '../lib/session';
import { StatusBadge } from '../ui';
import { DocumentList } from './document-list';

const FILTERS: Array<{ value: InvoiceStatus | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Draft' },
  { value: 'sent', label: 'Sent' },
  { value: 'partially_paid', label: 'Partly paid' },
  { value: 'overdue', label: 'Overdue' },
  { value: 'paid', label: 'Paid' },
  { value: 'void', label: 'Void' },
];

export function Invoices() {
  const format = useFormat();
  return (
    <DocumentList<Invoice, InvoiceStatus>
      kind={{
        collection: 'invoices',
        load: (query) => portal.get('/invoices', { params: { query } }),
        noun: ['invoice', 'invoices'],
        title: 'Invoices',
        subtitle: 'Bill your customers and keep track of what is owed.',
        newLabel: 'New invoice',
        statuses: FILTERS,
        empty: {
          icon: '▤',
          createLabel: 'Create an invoice',
          text: 'Invoices you create or convert from jobs show up here.',
        },
        columns: [
          { header: 'Issued', cell: (i) => format.date(i.issue_date) },
          { header: 'Due', cell: (i) => format.date(i.due_date) },
          { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
          { header: 'Total', align: 'right', cell: (i) => format.money(i.total, i.currency) },
          {
            header: 'Balance',
            align: 'right',
            cell: (i) => <strong>{format.money(i.balance, i.currency)}</strong>,
          },
        ],
      }}
    />
  );
}
