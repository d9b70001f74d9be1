import { type ReactNode, useEffect, useState } from 'react';
import { request } from './lib/api';
import type { Route } from './lib/router';
import { READ_ONLY_REASON, useSession } from './lib/session';
import { Analytics } from './screens/analytics';
import { Benchmark } from './screens/benchmark';
import { Bookings } from './screens/bookings';
import { CustomerDetail } from './screens/customer-detail';
import { Customers } from './screens/customers';
import { Dashboard } from './screens/dashboard';
import { DocumentEdit } from './screens/document-edit';
import { InvoiceDetail } from './screens/invoice-detail';
import { InvoiceNew } from './screens/invoice-new';
import { Invoices } from './screens/invoices';
import { JobDetail } from './screens/job-detail';
import { Jobs } from './screens/jobs';
import { Messages } from './screens/messages';
import { PlanDetail } from './screens/plan-detail';
import { PlanForm } from './screens/plan-form';
import { Plans } from './screens/plan-list';
import { QuoteDetail } from './screens/quote-detail';
import { QuoteNew } from './screens/quote-new';
import { Quotes } from './screens/quotes';
import { Report } from './screens/report';
import { Reviews } from './screens/reviews';
import { SalesTax } from './screens/sales-tax';
import { Settings } from './screens/settings';
import { SyncIndicator } from './screens/sync-indicator';
import { Team } from './screens/team';
import { EmptyState } from './ui';

const NAV: Array<{ title: string; links: Array<{ path: string; label: string; icon: string }> }> = [
  {
    title: 'Work',
    links: [
      { path: 'dashboard', label: 'Dashboard', icon: '◧' },
      { path: 'customers', label: 'Customers', icon: '☺' },
      { path: 'jobs', label: 'Jobs & calendar', icon: '▦' },
      { path: 'plans', label: 'Service plans', icon: '↻' },
      { path: 'bookings', label: 'Bookings', icon: '◷' },
      { path: 'team', label: 'Team', icon: '⚇' },
      { path: 'messages', label: 'Messages', icon: '✉' },
    ],
  },
  {
    title: 'Money',
    links: [
      { path: 'invoices', label: 'Invoices', icon: '▤' },
      { path: 'quotes', label: 'Quotes', icon: '✎' },
      { path: 'sales-tax', label: 'Sales tax', icon: '%' },
    ],
  },
  {
    title: 'Insights',
    links: [
      { path: 'reviews', label: 'Reviews', icon: '★' },
      { path: 'analytics', label: 'Analytics', icon: '↗' },
      { path: 'report', label: 'Report', icon: '≡' },
      { path: 'benchmark', label: 'Benchmark', icon: '◎' },
    ],
  },
  { title: 'Account', links: [{ path: 'settings', label: 'Settings', icon: '⚙' }] },
];

function screenFor(segments: string[]): ReactNode {
  const [section = 'dashboard', id, sub] = segments;
  switch (section) {
    case 'dashboard':
      return <Dashboard />;
    case 'customers':
      return id ? <CustomerDetail customerId={id} /> : <Customers />;
    case 'invoices':
      if (id === 'new') return <InvoiceNew />;
      if (id && sub === 'edit') return <DocumentEdit kind="invoice" number={id} />;
      return id ? <InvoiceDetail number={id} /> : <Invoices />;
    case 'quotes':
      if (id === 'new') return <QuoteNew />;
      if (id && sub === 'edit') return <DocumentEdit kind="quote" number={id} />;
      return id ? <QuoteDetail number={id} /> : <Quotes />;
    case 'jobs':
      return id ? <JobDetail number={id} /> : <Jobs />;
    case 'plans':
      if (id === 'new') return <PlanForm />;
      if (id && sub === 'edit') return <PlanForm id={id} />;
      return id ? <PlanDetail id={id} /> : <Plans />;
    case 'bookings':
      return <Bookings />;
    case 'team':
      return <Team />;
    case 'messages':
      return <Messages />;
    case 'reviews':
      return <Reviews />;
    case 'analytics':
      return <Analytics />;
    case 'report':
      return <Report />;
    case 'benchmark':
      return <Benchmark />;
    case 'sales-tax':
      return <SalesTax />;
    case 'settings':
      return <Settings tab={id ?? 'business'} sub={sub} />;
    default:
      return (
        <EmptyState title="Nothing here" action={<a href="#/dashboard">Go to the dashboard</a>}>
          This page does not exist.
        </EmptyState>
      );
  }
}

function useDesktopOnline(): boolean {
  const [online, setOnline] = useState(true);
  useEffect(() => {
    const desktop = window.shopdesk;
    if (!desktop) return;
    desktop.isOnline().then(setOnline, () => undefined);
    return desktop.onOnlineChange(setOnline);
  }, []);
  return online;
}

export function Shell({ route }: { route: Route }) {
  const { session, canWrite } = useSession();
  const online = useDesktopOnline();
  const section = route.segments[0] ?? 'dashboard';
  // On a phone the navigation folds behind a menu button; picking a screen folds it again.
  const [menuOpen, setMenuOpen] = useState(false);

  useEffect(() => {
    if (!menuOpen) return;
    const closeOnEscape = (event: KeyboardEvent) => {
      if (event.key === 'Escape') setMenuOpen(false);
    };
    window.addEventListener('keydown', closeOnEscape);
    return () => window.removeEventListener('keydown', closeOnEscape);
  }, [menuOpen]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: each new screen starts at the top
  useEffect(() => {
    window.scrollTo(0, 0);
    setMenuOpen(false);
  }, [route.path]);

  const signOut = async () => {
    await request('POST', '/api/session/sign-out');
    window.location.hash = '/?signed_out=1';
    window.location.reload();
  };

  return (
    <div className="shell">
      {/* A button, not an anchor: "#main" would be read as a route by the hash router. */}
      <button type="button" className="skip-link" onClick={() => document.getElementById('main')?.focus()}>
        Skip to content
      </button>
      <nav className={menuOpen ? 'sidebar sidebar-open' : 'sidebar'} aria-label="Main">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            ✦
          </span>
          <span>
            Shopdesk
            <small title={session.business_name}>{session.business_name}</small>
          </span>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls="nav-menu"
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span aria-hidden="true">{menuOpen ? '✕' : '☰'}</span> Menu
          </button>
        </div>
        <div className="nav-menu" id="nav-menu">
          <SyncIndicator />
          {NAV.map((group) => (
            <div className="nav-group" key={group.title}>
              <div className="nav-title">{group.title}</div>
              {group.links.map((link) => (
                <a
                  key={link.path}
                  className="nav-link"
                  href={`#/${link.path}`}
                  aria-current={section === link.path ? 'page' : undefined}
                >
                  <span className="nav-icon" aria-hidden="true">
                    {link.icon}
                  </span>
                  {link.label}
                </a>
              ))}
            </div>
          ))}
          <div className="sidebar-footer">
            <span>
              Plan: <span className="plan-pill">{session.plan === 'platform' ? 'Platform' : 'Basic'}</span>
            </span>
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </nav>
      <div className="main">
        {!canWrite && (
          <div className="banner" role="status">
            Read-only: {READ_ONLY_REASON}
          </div>
        )}
        {!online && (
          <div className="banner banner-offline" role="status">
            Offline: everything keeps working here; e-mails and webhooks wait in the outbox until you are back
            online.
          </div>
        )}
        <main className="content" id="main" tabIndex={-1}>
          {screenFor(route.segments)}
        </main>
      </div>
    </div>
  );
}
