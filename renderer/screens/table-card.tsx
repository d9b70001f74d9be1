import type { ReactNode } from 'react';
import { Card, type Column, Table } from '../ui';

/** A titled card holding a short table, or its empty state when there are no rows. */
export function TableCard<T>({
  title,
  rows,
  rowKey,
  rowHref,
  columns,
  empty,
  note,
}: {
  title: string;
  rows: T[];
  rowKey(row: T): string;
  rowHref?(row: T): string;
  columns: Column<T>[];
  empty: ReactNode;
  /** A line under the table, for where to look further. */
  note?: ReactNode;
}) {
  return (
    <Card title={title} padded={false}>
      {rows.length === 0 ? (
        empty
      ) : (
        <Table caption={title} rows={rows} rowKey={rowKey} rowHref={rowHref} columns={columns} />
      )}
      {note}
    </Card>
  );
}
