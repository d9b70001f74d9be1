import { type ReactNode, useState } from 'react';
import type { ListPage } from '../lib/api';
import { href } from '../lib/router';
import { usePagedList } from '../lib/use-resource';
import { type Column, EmptyState, LinkButton, PageHeader, Toolbar } from '../ui';
import { Segmented, useDebounced } from './common';
import { PagedTable } from './paged-table';
import { SearchField } from './search-field';

interface ListedDocument {
  id: string;
  number: string;
  customer: { name: string; email: string | null };
}

/** What tells the invoice list from the quote list; the screen around them is the same. */
export interface DocumentListKind<T, S extends string> {
  /** The route and API collection: 'invoices' or 'quotes'. */
  collection: 'invoices' | 'quotes';
  noun: [string, string];
  title: string;
  subtitle: string;
  newLabel: string;
  statuses: Array<{ value: S | 'all'; label: string }>;
  /** `text` explains an empty, unfiltered list; a list without it shows the title alone. */
  empty: { icon: string; createLabel: string; text?: ReactNode };
  /** The columns after number and customer. */
  columns: Column<T>[];
  /** One page of the collection, filtered. */
  load(query: { status?: S; q?: string; cursor?: string; limit: number }): Promise<ListPage<T>>;
}

export function DocumentList<T extends ListedDocument, S extends string>({
  kind,
}: {
  kind: DocumentListKind<T, S>;
}) {
  const [status, setStatus] = useState<S | 'all'>('all');
  const [search, setSearch] = useState('');
  const q = useDebounced(search.trim());
  const list = usePagedList(
    (cursor) =>
      kind.load({ status: status === 'all' ? undefined : status, q: q || undefined, cursor, limit: 50 }),
    `${kind.collection}:${status}:${q}`,
  );
  const unfiltered = status === 'all' && !q;
  const newHref = `#/${kind.collection}/new`;
  return (
    <>
      <PageHeader
        title={kind.title}
        subtitle={kind.subtitle}
        actions={
          <LinkButton variant="primary" href={newHref}>
            {kind.newLabel}
          </LinkButton>
        }
      />
      <Toolbar>
        <Segmented label="Status" options={kind.statuses} value={status} onChange={setStatus} />
        <SearchField
          id={`${kind.noun[0]}-search`}
          label={`Search ${kind.noun[1]}`}
          hideLabel
          placeholder="Search number, customer name or e-mail"
          value={search}
          onChange={setSearch}
        />
      </Toolbar>
      <PagedTable
        list={list}
        caption={kind.title}
        rowKey={(d) => d.id}
        rowHref={(d) => href(kind.collection, d.number)}
        noun={kind.noun}
        skeletonRows={8}
        skeletonColumns={5}
        empty={
          <EmptyState
            title={unfiltered ? `No ${kind.noun[1]} yet` : `No ${kind.noun[1]} match`}
            icon={kind.empty.icon}
            action={
              unfiltered && (
                <LinkButton variant="primary" href={newHref}>
                  {kind.empty.createLabel}
                </LinkButton>
              )
            }
          >
            {kind.empty.text && (unfiltered ? kind.empty.text : 'Try another filter.')}
          </EmptyState>
        }
        columns={[
          { header: 'Number', cell: (d) => <span className="cell-title">{d.number}</span> },
          {
            header: 'Customer',
            cell: (d) => (
              <>
                <div>{d.customer.name}</div>
                <div className="cell-sub">{d.customer.email ?? 'No e-mail'}</div>
              </>
            ),
          },
          ...kind.columns,
        ]}
      />
    </>
  );
}
