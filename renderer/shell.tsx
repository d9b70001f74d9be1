import { type ReactNode, Suspense, useEffect, useState } from 'react';
import type { Permission } from '../shared/roles';
import {
  Analytics,
  Benchmark,
  Bookings,
  CustomerDetail,
  Customers,
  Dashboard,
  DocumentEdit,
  InvoiceDetail,
  InvoiceNew,
  Invoices,
  JobDetail,
  Jobs,
  Messages,
  PlanDetail,
  PlanForm,
  Plans,
  QuoteDetail,
  QuoteNew,
  Quotes,
  Report,
  Reviews,
  SalesTax,
  Settings,
  Team,
} from './lazy-screens';
import { request } from './lib/api';
import type { Route } from './lib/router';
import { Offered, READ_ONLY_REASON, useSession } from './lib/session';
import { MyWork } from './screens/my-work';
import { SyncIndicator } from './screens/sync-indicator';
import { EmptyState, Spinner } from './ui';

interface NavLink {
  path: string;
  label: string;
  icon: string;
  /** The permission the screen's calls need (shared/roles.ts): a role without it is not offered the screen. */
  needs: Permission;
  /** Only for a role that cannot read the business's records: the crew's own schedule. */
  crewOnly?: boolean;
}

const NAV: Array<{ title: string; links: NavLink[] }> = [
  {
    title: 'My work',
    links: [{ path: 'my-work', label: 'My schedule', icon: '▦', needs: 'own_visits', crewOnly: true }],
  },
  {
    title: 'Work',
    links: [
      { path: 'dashboard', label: 'Dashboard', icon: '◧', needs: 'read' },
      { path: 'customers', label: 'Customers', icon: '☺', needs: 'read' },
      { path: 'jobs', label: 'Jobs & calendar', icon: '▦', needs: 'read' },
      { path: 'plans', label: 'Service plans', icon: '↻', needs: 'read' },
      { path: 'bookings', label: 'Bookings', icon: '◷', needs: 'read' },
      { path: 'team', label: 'Team', icon: '⚇', needs: 'read' },
      { path: 'messages', label: 'Messages', icon: '✉', needs: 'read' },
    ],
  },
  {
    title: 'Money',
    links: [
      { path: 'invoices', label: 'Invoices', icon: '▤', needs: 'billing' },
      { path: 'quotes', label: 'Quotes', icon: '✎', needs: 'read' },
      { path: 'sales-tax', label: 'Sales tax', icon: '%', needs: 'billing' },
    ],
  },
  {
    title: 'Insights',
    links: [
      { path: 'reviews', label: 'Reviews', icon: '★', needs: 'read' },
      { path: 'analytics', label: 'Analytics', icon: '↗', needs: 'read' },
      { path: 'report', label: 'Report', icon: '≡', needs: 'read' },
      { path: 'benchmark', label: 'Benchmark', icon: '◎', needs: 'read' },
    ],
  },
  { title: 'Account', links: [{ path: 'settings', label: 'Settings', icon: '⚙', needs: 'read' }] },
];

/** The screens a role is offered: those its permissions allow, the crew's own only to the crew. */
function navFor(may: (permission: Permission) => boolean) {
  return NAV.map((group) => ({
    ...group,
    links: group.links.filter((link) => may(link.needs) && (!link.crewOnly || !may('read'))),
  })).filter((group) => group.links.length > 0);
}

function screenFor(segments: string[], offered: ReadonlySet<string>): ReactNode {
  const [section = offered.has('dashboard') ? 'dashboard' : 'my-work', id, sub] = segments;
  const known = NAV.some((group) => group.links.some((link) => link.path === section));
  if (known && !offered.has(section)) return <NotForYourRole />;
  switch (section) {
    case 'my-work':
      return <MyWork />;
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

function NotForYourRole() {
  return (
    <EmptyState title="Not for your role" action={<a href="#/">Go to your start page</a>}>
      Your role does not include this screen. The owner can change what you may do.
    </EmptyState>
  );
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
  const { session, may } = useSession();
  const nav = navFor(may);
  const offered = new Set(nav.flatMap((group) => group.links.map((link) => link.path)));
  const online = useDesktopOnline();
  const section = route.segments[0] ?? (offered.has('dashboard') ? 'dashboard' : 'my-work');
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
          <Offered needs="admin">
            <SyncIndicator />
          </Offered>
          {nav.map((group) => (
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
            {session.member.name && (
              <span>
                {session.member.name} ({session.member.role})
              </span>
            )}
            <button type="button" onClick={signOut}>
              Sign out
            </button>
          </div>
        </div>
      </nav>
      <div className="main">
        {session.plan !== 'platform' && may('write') && (
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
          <Suspense fallback={<Spinner label="Loading" />}>{screenFor(route.segments, offered)}</Suspense>
        </main>
      </div>
    </div>
  );
}
