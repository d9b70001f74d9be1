import type { Permission } from '../../shared/roles';
import { href } from '../lib/router';
import { useSession } from '../lib/session';
import { EmptyState, PageHeader } from '../ui';
import { BackupSettings } from './settings/backups';
import { BookingPageSettingsScreen } from './settings/booking-page';
import { BusinessSettings } from './settings/business';
import { ClientHubSettings } from './settings/client-hub';
import { DesktopSettings } from './settings/desktop';
import { ExportSettings } from './settings/export';
import { ImportSettings } from './settings/import';
import { IntegrationSettings } from './settings/integrations';
import { ReminderSettings } from './settings/reminders';
import { SyncSettings } from './settings/sync';
import { WebhookSettings } from './settings/webhooks';

/** `admin` tabs are the owner's (shared/roles.ts): the office is not offered them. */
const TABS: Array<{ id: string; label: string; needs: Permission; desktopOnly?: boolean }> = [
  { id: 'business', label: 'Business', needs: 'read' },
  { id: 'reminders', label: 'Reminders', needs: 'read' },
  { id: 'booking-page', label: 'Booking page', needs: 'read' },
  { id: 'client-hub', label: 'Client hub', needs: 'read' },
  { id: 'integrations', label: 'Integrations', needs: 'admin' },
  { id: 'webhooks', label: 'Webhooks', needs: 'admin' },
  { id: 'import', label: 'Import', needs: 'admin' },
  { id: 'export', label: 'Export', needs: 'admin' },
  { id: 'sync', label: 'Sync', needs: 'admin' },
  { id: 'backups', label: 'Backups', needs: 'admin' },
  { id: 'desktop', label: 'Desktop', needs: 'read', desktopOnly: true },
];

export function Settings({ tab, sub }: { tab: string; sub?: string }) {
  const { may } = useSession();
  const tabs = TABS.filter((t) => (!t.desktopOnly || window.shopdesk) && may(t.needs));
  if (TABS.some((t) => t.id === tab) && !tabs.some((t) => t.id === tab)) {
    return (
      <>
        <PageHeader title="Settings" />
        <EmptyState
          title="The owner's settings"
          action={<a href={href('settings', 'business')}>Business settings</a>}
        >
          API keys, webhooks, imports, exports, sync and backups are the owner's to manage.
        </EmptyState>
      </>
    );
  }
  return (
    <>
      <PageHeader title="Settings" name={`${tabs.find((t) => t.id === tab)?.label ?? ''} settings`.trim()} />
      <nav className="tabs" aria-label="Settings">
        {tabs.map((t) => (
          <a key={t.id} href={href('settings', t.id)} aria-current={t.id === tab ? 'page' : undefined}>
            {t.label}
          </a>
        ))}
      </nav>
      {tab === 'business' && <BusinessSettings />}
      {tab === 'reminders' && <ReminderSettings />}
      {tab === 'booking-page' && <BookingPageSettingsScreen />}
      {tab === 'client-hub' && <ClientHubSettings />}
      {tab === 'integrations' && <IntegrationSettings />}
      {tab === 'webhooks' && <WebhookSettings selected={sub} />}
      {tab === 'import' && <ImportSettings />}
      {tab === 'export' && <ExportSettings />}
      {tab === 'sync' && <SyncSettings />}
      {tab === 'backups' && <BackupSettings />}
      {tab === 'desktop' && window.shopdesk && <DesktopSettings desktop={window.shopdesk} />}
    </>
  );
}
