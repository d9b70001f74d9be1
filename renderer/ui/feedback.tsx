import type { ReactNode } from 'react';
import { errorMessage } from '../lib/api';

export function Spinner({ size = 18, label }: { size?: number; label?: string }) {
  const style = { width: size, height: size };
  if (!label) return <span className="spinner" aria-hidden="true" style={style} />;
  return <span className="spinner" role="status" aria-label={label} style={style} />;
}

export function Skeleton({ width = '100%', height = 14 }: { width?: number | string; height?: number }) {
  return <span className="skeleton" aria-hidden="true" style={{ width, height }} />;
}

/** Placeholder rows while a table's first page loads. */
export function SkeletonRows({ rows = 5, columns = 4 }: { rows?: number; columns?: number }) {
  return (
    <div className="skeleton-rows" role="status" aria-label="Loading">
      {Array.from({ length: rows }, (_, row) => (
        // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
        <div className="skeleton-row" key={row}>
          {Array.from({ length: columns }, (_, column) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: placeholders have no identity
            <Skeleton key={column} width={column === 0 ? '40%' : '70%'} />
          ))}
        </div>
      ))}
    </div>
  );
}

export function EmptyState({
  title,
  children,
  action,
  icon = '◌',
}: {
  title: string;
  children?: ReactNode;
  action?: ReactNode;
  icon?: ReactNode;
}) {
  return (
    <div className="empty-state">
      <div className="empty-icon" aria-hidden="true">
        {icon}
      </div>
      <h3>{title}</h3>
      {children && <p>{children}</p>}
      {action && <div className="empty-action">{action}</div>}
    </div>
  );
}

/** An API error in words, as the server wrote it. */
export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  return (
    <div className="notice notice-error" role="alert">
      <strong>Something went wrong.</strong> <span>{errorMessage(error)}</span>
      {onRetry && (
        <button type="button" className="link" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}

export function Notice({
  tone = 'info',
  children,
}: {
  tone?: 'info' | 'warning' | 'success';
  children: ReactNode;
}) {
  return <div className={`notice notice-${tone}`}>{children}</div>;
}
