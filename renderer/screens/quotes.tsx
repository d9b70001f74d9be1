import type { Quote, QuoteStatus } from '../../shared/schemas/quote';
import { portal } from '../lib/api';
import { useFormat } from '../lib/session';
import { StatusBadge } from '../ui';
import { DocumentList } from './document-list';

const FILTERS: Array<{ value: QuoteStatus | 'all'; label: string }> = [
  { value: 'all', label: 'All' },
  { value: 'draft', label: 'Draft' },
  { value: 'sent', label: 'Sent' },
  { value: 'accepted', label: 'Accepted' },
  { value: 'declined', label: 'Declined' },
  { value: 'converted', label: 'Converted' },
  { value: 'expired', label: 'Expired' },
];

export function Quotes() {
  const format = useFormat();
  return (
    <DocumentList<Quote, QuoteStatus>
      kind={{
        collection: 'quotes',
        load: (query) => portal.get('/quotes', { params: { query } }),
        noun: ['quote', 'quotes'],
        title: 'Quotes',
        subtitle: 'Estimates you sent, and what your customers said.',
        newLabel: 'New quote',
        statuses: FILTERS,
        empty: { icon: '✎', createLabel: 'Write a quote' },
        columns: [
          { header: 'Issued', cell: (x) => format.date(x.issue_date) },
          { header: 'Valid until', cell: (x) => format.date(x.valid_until) },
          { header: 'Status', cell: (x) => <StatusBadge status={x.status} /> },
          {
            header: 'Total',
            align: 'right',
            cell: (x) => <strong>{format.money(x.total, x.currency)}</strong>,
          },
        ],
      }}
    />
  );
}
