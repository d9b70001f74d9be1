import { type ReactNode, useEffect } from 'react';
import { useSession } from '../lib/session';

/**
 * The screen's heading, which also names the window or tab ("Invoice INV-0005 · Sparkle Cleaning ·
 * Shopdesk"), so history, the task bar and a screen reader say where the owner is.
 */
export function PageHeader({
  title,
  name,
  subtitle,
  actions,
  back,
}: {
  title: ReactNode;
  /** The screen's name in the window title, when `title` is more than text. */
  name?: string;
  subtitle?: ReactNode;
  actions?: ReactNode;
  back?: { href: string; label: string };
}) {
  const { session } = useSession();
  const screen = name ?? (typeof title === 'string' ? title : undefined);
  useEffect(() => {
    document.title = [screen, session.business_name, 'Shopdesk'].filter(Boolean).join(' · ');
  }, [screen, session.business_name]);
  return (
    <header className="page-header">
      <div>
        {back && (
          <a className="back-link" href={back.href}>
            ← {back.label}
          </a>
        )}
        <h1>{title}</h1>
        {subtitle && <p className="page-subtitle">{subtitle}</p>}
      </div>
      {actions && <div className="page-actions">{actions}</div>}
    </header>
  );
}

export function Card({
  title,
  actions,
  children,
  className,
  padded = true,
}: {
  title?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  padded?: boolean;
}) {
  return (
    <section className={`card${className ? ` ${className}` : ''}`}>
      {(title || actions) && (
        <header className="card-header">
          {title && <h2>{title}</h2>}
          {actions && <div className="card-actions">{actions}</div>}
        </header>
      )}
      <div className={padded ? 'card-body' : undefined}>{children}</div>
    </section>
  );
}

/** One headline figure. */
export function Stat({
  label,
  value,
  detail,
  tone,
}: {
  label: string;
  value: ReactNode;
  detail?: ReactNode;
  tone?: 'danger' | 'success' | 'warning';
}) {
  return (
    <div className={`stat${tone ? ` stat-${tone}` : ''}`}>
      <div className="stat-label">{label}</div>
      <div className="stat-value">{value}</div>
      {detail && <div className="stat-detail">{detail}</div>}
    </div>
  );
}

export function Toolbar({ children }: { children: ReactNode }) {
  return <div className="toolbar">{children}</div>;
}

/** A definition list for a record's details. */
export function Details({ items }: { items: Array<[string, ReactNode]> }) {
  return (
    <dl className="details">
      {items.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value ?? '—'}</dd>
        </div>
      ))}
    </dl>
  );
}
