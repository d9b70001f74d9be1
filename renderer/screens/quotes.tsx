import { useState } from 'react';
import type { Quote, QuoteStatus } from '../../shared/schemas/quote';
import { api, type ListPage } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { usePagedList } from '../lib/use-resource';
import {
  EmptyState,
  ErrorNotice,
  Input,
  LinkButton,
  PageHeader,
  SkeletonRows,
  StatusBadge,
  Table,
  Toolbar,
} from '../ui';
import { ListFooter, Segmented, useDebounced } from './common';

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
  const [status, setStatus] = useState<QuoteStatus | 'all'>('all');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  const query = { status: status === 'all' ? undefined : status, q: q || undefined };
  const list = usePagedList(
    (cursor) => api.get<ListPage<Quote>>('/quotes', { ...query, cursor, limit: 50 }),
    JSON.stringify(query),
  );
  return (
    <>
      <PageHeader
        title="Quotes"
        subtitle="Estimates you sent, and what your customers said."
        actions={
          <LinkButton variant="primary" href="#/quotes/new">
            New quote
          </LinkButton>
        }
      />
      <Toolbar>
        <Segmented label="Status" options={FILTERS} value={status} onChange={setStatus} />
        <div className="field search">
          <label htmlFor="quote-search" className="sr-only">
            Search quotes
          </label>
          <Input
            id="quote-search"
            type="search"
            placeholder="Search number, customer name or e-mail"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
        </div>
      </Toolbar>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && list.items.length === 0 ? (
        <div className="table-wrap">
          <SkeletonRows rows={8} columns={5} />
        </div>
      ) : list.items.length === 0 && !list.error ? (
        <div className="table-wrap">
          <EmptyState
            title={status === 'all' && !q ? 'No quotes yet' : 'No quotes match'}
            icon="✎"
            action={
              status === 'all' &&
              !q && (
                <LinkButton variant="primary" href="#/quotes/new">
                  Write a quote
                </LinkButton>
              )
            }
          />
        </div>
      ) : (
        <>
          <Table
            caption="Quotes"
            rows={list.items}
            rowKey={(x) => x.id}
            rowHref={(x) => href('quotes', x.number)}
            columns={[
              { header: 'Number', cell: (x) => <span className="cell-title">{x.number}</span> },
              {
                header: 'Customer',
                cell: (x) => (
                  <>
                    <div>{x.customer.name}</div>
                    <div className="cell-sub">{x.customer.email}</div>
                  </>
                ),
              },
              { header: 'Issued', cell: (x) => format.date(x.issue_date) },
              { header: 'Valid until', cell: (x) => format.date(x.valid_until) },
              { header: 'Status', cell: (x) => <StatusBadge status={x.status} /> },
              {
                header: 'Total',
                align: 'right',
                cell: (x) => <strong>{format.money(x.total, x.currency)}</strong>,
              },
            ]}
          />
          <ListFooter
            count={list.items.length}
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            noun={['quote', 'quotes']}
          />
        </>
      )}
    </>
  );
}
