import { href } from '../lib/router';
import { PageHeader } from '../ui';
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

const TABS = [
  { id: 'business', label: 'Business' },
  { id: 'reminders', label: 'Reminders' },
  { id: 'booking-page', label: 'Booking page' },
  { id: 'client-hub', label: 'Client hub' },
  { id: 'integrations', label: 'Integrations' },
  { id: 'webhooks', label: 'Webhooks' },
  { id: 'import', label: 'Import' },
  { id: 'export', label: 'Export' },
  { id: 'sync', label: 'Sync' },
  { id: 'backups', label: 'Backups' },
  { id: 'desktop', label: 'Desktop', desktopOnly: true },
];

export function Settings({ tab, sub }: { tab: string; sub?: string }) {
  const tabs = TABS.filter((t) => !t.desktopOnly || window.shopdesk);
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
