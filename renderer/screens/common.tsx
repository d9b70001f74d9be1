import { type ReactNode, useEffect, useState } from 'react';
import { count } from '../lib/plural';
import type { Resource } from '../lib/use-resource';
import { ErrorNotice, SkeletonRows } from '../ui';

/** Loading, error or content, the same way on every screen. */
export function Loaded<T>({
  resource,
  children,
  rows = 6,
}: {
  resource: Resource<T>;
  children(data: T): ReactNode;
  rows?: number;
}) {
  if (resource.error && !resource.data)
    return <ErrorNotice error={resource.error} onRetry={resource.reload} />;
  if (!resource.data) return <SkeletonRows rows={rows} />;
  return <>{children(resource.data)}</>;
}

export function Stars({ rating }: { rating: number }) {
  const whole = Math.round(rating);
  return (
    <span className="stars" role="img" aria-label={`${rating} out of 5`}>
      {'★'.repeat(whole)}
      <span className="stars-off">{'★'.repeat(5 - whole)}</span>
    </span>
  );
}

/** Buttons that pick one value (status filters, intervals). */
export function Segmented<T extends string>({
  options,
  value,
  onChange,
  label,
}: {
  options: ReadonlyArray<{ value: NoInfer<T>; label: string }>;
  value: T;
  onChange(value: NoInfer<T>): void;
  label: string;
}) {
  return (
    // biome-ignore lint/a11y/useSemanticElements: a button group, each button announces its pressed state
    <div className="segmented" role="group" aria-label={label}>
      {options.map((option) => (
        <button
          key={option.value}
          type="button"
          aria-pressed={option.value === value}
          onClick={() => onChange(option.value)}
        >
          {option.label}
        </button>
      ))}
    </div>
  );
}

/** "Load more" under a cursor-paged list. */
export function ListFooter({
  count: shown,
  hasMore,
  loading,
  onMore,
  noun,
}: {
  count: number;
  hasMore: boolean;
  loading: boolean;
  onMore(): void;
  /** The thing listed, singular and plural: ['invoice', 'invoices']. */
  noun: [string, string];
}) {
  return (
    <div className="list-footer">
      <span>
        Showing {count(shown, noun[0], noun[1])}
        {hasMore ? '' : shown > 0 ? ' — that is all' : ''}
      </span>
      {hasMore && (
        <button type="button" className="btn btn-secondary btn-sm" onClick={onMore} disabled={loading}>
          {loading ? 'Loading…' : 'Load more'}
        </button>
      )}
    </div>
  );
}

/** The value once it has stopped changing for `ms` (search boxes query the server after typing pauses). */
export function useDebounced<T>(value: T, ms = 250): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return debounced;
}
