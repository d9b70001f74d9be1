import type { KeyboardEvent, ReactNode } from 'react';
import { navigate } from '../lib/router';

export interface Column<T> {
  header: ReactNode;
  /** What a phone shows beside the cell when the row becomes a card; the header when it is text. */
  label?: string;
  cell(row: T): ReactNode;
  align?: 'left' | 'right';
  width?: string;
}

/**
 * A data table. Rows with an `href` open on click or Enter, so the whole list is usable from the
 * keyboard; the first cell also holds a real link for screen readers and middle-click.
 */
export function Table<T>({
  columns,
  rows,
  rowKey,
  rowHref,
  caption,
}: {
  columns: Column<T>[];
  rows: T[];
  rowKey(row: T): string;
  rowHref?(row: T): string;
  caption?: string;
}) {
  const open = (row: T) => rowHref && navigate(rowHref(row));
  const labels = columns.map((c) => c.label ?? (typeof c.header === 'string' ? c.header : undefined));
  const onKey = (event: KeyboardEvent, row: T) => {
    if (event.key === 'Enter') open(row);
  };
  return (
    <div className="table-wrap">
      <table className="table table-cards">
        {caption && <caption className="sr-only">{caption}</caption>}
        <thead>
          <tr>
            {columns.map((column, index) => (
              // biome-ignore lint/suspicious/noArrayIndexKey: columns are static per table
              <th key={index} style={{ textAlign: column.align ?? 'left', width: column.width }} scope="col">
                {column.header}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {rows.map((row) => (
            <tr
              key={rowKey(row)}
              className={rowHref ? 'row-link' : undefined}
              tabIndex={rowHref ? 0 : undefined}
              onClick={rowHref ? () => open(row) : undefined}
              onKeyDown={rowHref ? (event) => onKey(event, row) : undefined}
            >
              {columns.map((column, index) => (
                // biome-ignore lint/suspicious/noArrayIndexKey: columns are static per table
                <td key={index} style={{ textAlign: column.align ?? 'left' }} data-label={labels[index]}>
                  {column.cell(row)}
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
