import type { BackupStatus } from '../../shared/schemas/backup';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { LinkButton, Notice } from '../ui';

/** How long the dashboard keeps saying a restore happened: long enough to be seen after a weekend. */
const RESTORE_NOTICE_MS = 7 * 86_400_000;

/**
 * The dashboard's word on backups: a warning when the data is not safely backed up (the last
 * backup failed, none succeeded for over a day, or there is none yet; a log line nobody reads
 * would not save anyone), and for a week after a restore, when it happened and how old the data is.
 */
export function BackupAlert() {
  const overview = useResource(() => portal.get('/backups'), 'backup-alert');
  const status = overview.data?.status;
  if (!status) return null;
  return (
    <>
      <RestoreNotice status={status} />
      <HealthAlert status={status} />
    </>
  );
}

function HealthAlert({ status }: { status: BackupStatus }) {
  const format = useFormat();
  if (status.health === 'ok') return null;
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

function RestoreNotice({ status }: { status: BackupStatus }) {
  const format = useFormat();
  const restore = status.last_restore;
  if (!restore || Date.now() - Date.parse(restore.restored_at) > RESTORE_NOTICE_MS) return null;
  return (
    <div data-testid="restore-notice">
      <Notice tone="info">
        <strong>Restored from a backup.</strong> On {format.dateTime(restore.restored_at)} your data was put
        back as it was on {format.dateTime(restore.backup_created_at)}; what changed in between is kept in the
        “Before a restore” backup.{' '}
        <LinkButton size="sm" href={href('settings', 'backups')}>
          Open Settings › Backups
        </LinkButton>
      </Notice>
    </div>
  );
}
