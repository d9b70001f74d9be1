import type { BackupOverview } from '../../shared/schemas/backup';
import { api } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { LinkButton, Notice } from '../ui';

/**
 * The dashboard's warning when the data is not safely backed up: the last backup failed, none
 * succeeded for over a day, or there is none yet. A log line nobody reads would not save anyone.
 */
export function BackupAlert() {
  const format = useFormat();
  const overview = useResource(() => api.get<BackupOverview>('/backups'), 'backup-alert');
  const status = overview.data?.status;
  if (!status || status.health === 'ok') return null;
  const last = status.last_success_at ? format.dateTime(status.last_success_at) : null;
  const text =
    status.health === 'failed'
      ? `The last backup failed: ${status.last_error}`
      : status.health === 'overdue'
        ? `No backup has succeeded since ${last}.`
        : 'There is no backup of your data yet.';
  return (
    <div data-testid="backup-alert">
      <Notice tone="warning">
        <strong>Backups need attention.</strong> {text}{' '}
        <LinkButton size="sm" href={href('settings', 'backups')}>
          Open Settings › Backups
        </LinkButton>
      </Notice>
    </div>
  );
}
