import { useState } from 'react';
import type { Invoice, InvoiceStatus } from '../../shared/schemas/invoice';
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
  const [status, setStatus] = useState<InvoiceStatus | 'all'>('all');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  const query = { status: status === 'all' ? undefined : status, q: q || undefined };
  const list = usePagedList(
    (cursor) => api.get<ListPage<Invoice>>('/invoices', { ...query, cursor, limit: 50 }),
    JSON.stringify(query),
  );
  return (
    <>
      <PageHeader
        title="Invoices"
        subtitle="Bill your customers and keep track of what is owed."
        actions={
          <LinkButton variant="primary" href="#/invoices/new">
            New invoice
          </LinkButton>
        }
      />
      <Toolbar>
        <Segmented label="Status" options={FILTERS} value={status} onChange={setStatus} />
        <div className="field search">
          <label htmlFor="invoice-search" className="sr-only">
            Search invoices
          </label>
          <Input
            id="invoice-search"
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
            title={status === 'all' && !q ? 'No invoices yet' : 'No invoices match'}
            icon="▤"
            action={
              status === 'all' &&
              !q && (
                <LinkButton variant="primary" href="#/invoices/new">
                  Create an invoice
                </LinkButton>
              )
            }
          >
            {status === 'all' && !q
              ? 'Invoices you create or convert from jobs show up here.'
              : 'Try another filter.'}
          </EmptyState>
        </div>
      ) : (
        <>
          <Table
            caption="Invoices"
            rows={list.items}
            rowKey={(i) => i.id}
            rowHref={(i) => href('invoices', i.number)}
            columns={[
              { header: 'Number', cell: (i) => <span className="cell-title">{i.number}</span> },
              {
                header: 'Customer',
                cell: (i) => (
                  <>
                    <div>{i.customer.name}</div>
                    <div className="cell-sub">{i.customer.email}</div>
                  </>
                ),
              },
              { header: 'Issued', cell: (i) => format.date(i.issue_date) },
              { header: 'Due', cell: (i) => format.date(i.due_date) },
              { header: 'Status', cell: (i) => <StatusBadge status={i.status} /> },
              { header: 'Total', align: 'right', cell: (i) => format.money(i.total, i.currency) },
              {
                header: 'Balance',
                align: 'right',
                cell: (i) => <strong>{format.money(i.balance, i.currency)}</strong>,
              },
            ]}
          />
          <ListFooter
            count={list.items.length}
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            noun={['invoice', 'invoices']}
          />
        </>
      )}
    </>
  );
}
