import type { ReactNode } from 'react';
import type { PagedList } from '../lib/use-resource';
import { type Column, ErrorNotice, SkeletonRows, Table } from '../ui';
import { ListFooter } from './common';

/**
 * A cursor-paged list as a table: placeholders while the first page loads, the empty state when
 * nothing matches, and "load more" under the rows. A failed load keeps the rows already shown.
 */
export function PagedTable<T>({
  list,
  caption,
  columns,
  rowKey,
  rowHref,
  noun,
  empty,
  skeletonRows = 6,
  skeletonColumns,
}: {
  list: PagedList<T>;
  caption: string;
  columns: Column<T>[];
  rowKey(row: T): string;
  rowHref?(row: T): string;
  /** The thing listed, singular and plural: ['invoice', 'invoices']. */
  noun: [string, string];
  empty: ReactNode;
  skeletonRows?: number;
  skeletonColumns?: number;
}) {
  return (
    <>
      {list.error && <ErrorNotice error={list.error} onRetry={list.reload} />}
      {list.loading && list.items.length === 0 ? (
        <div className="table-wrap">
          <SkeletonRows rows={skeletonRows} columns={skeletonColumns} />
        </div>
      ) : list.items.length === 0 && !list.error ? (
        <div className="table-wrap">{empty}</div>
      ) : (
        <>
          <Table caption={caption} rows={list.items} rowKey={rowKey} rowHref={rowHref} columns={columns} />
          <ListFooter
            count={list.items.length}
            hasMore={list.hasMore}
            loading={list.loading}
            onMore={list.loadMore}
            noun={noun}
          />
        </>
      )}
    </>
  );
}
