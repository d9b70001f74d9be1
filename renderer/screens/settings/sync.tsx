import type { SyncStatus } from '../../../shared/schemas/sync';
import { portal } from '../../lib/api';
import { useFormat, useSession } from '../../lib/session';
import { refreshSyncStatus, showSyncStatus, useSyncStatus } from '../../lib/use-sync-status';
import { Button, Card, Details, ErrorNotice, SkeletonRows, useToast } from '../../ui';
import { changesWaiting } from '../sync-indicator';
import { useBusyAction } from '../use-busy-action';
import { SyncConflicts } from './sync-conflicts';
import { SyncDevices } from './sync-devices';
import { JoinHubCard } from './sync-join';
import { AddDeviceCard } from './sync-pairing';

/** Settings > Sync: what this computer is in its business's sync, and everything the owner can do about it. */
export function SyncSettings() {
  const { status, error } = useSyncStatus();
  if (!status) {
    return error ? <ErrorNotice error={error} onRetry={refreshSyncStatus} /> : <SkeletonRows rows={4} />;
  }
  return (
    <div className="stack">
      <SyncStatusCard status={status} />
      {status.conflicts > 0 && <SyncConflicts count={status.conflicts} />}
      {status.role !== 'device' && <AddDeviceCard firstPairing={status.role === 'standalone'} />}
      {status.role === 'standalone' && <JoinHubCard />}
      {status.devices && <SyncDevices devices={status.devices} />}
    </div>
  );
}

function RoleSentence({ status }: { status: SyncStatus }) {
  const { session } = useSession();
  if (status.role === 'hub') {
    return (
      <>
        This computer is the hub of <strong>{session.business_name}</strong>
      </>
    );
  }
  if (status.role === 'device') {
    return (
      <>
        Synced with the hub at <span className="mono">{status.hub_url}</span>
      </>
    );
  }
  return <>This computer is not syncing yet</>;
}

function SyncStatusCard({ status }: { status: SyncStatus }) {
  const format = useFormat();
  const syncing = status.role !== 'standalone';
  return (
    <Card title="Sync" actions={syncing && <SyncNowButton />}>
      <div className="stack sync-status">
        <p className="sync-role" data-testid="sync-role">
          <RoleSentence status={status} />
        </p>
        {status.role === 'device' && (
          <p className="muted">Computers are added and removed in Settings › Sync on the hub.</p>
        )}
        {syncing ? (
          <>
            {status.last_error && (
              <div className="notice notice-error" role="alert">
                <strong>The last sync did not go through.</strong> {status.last_error} Shopdesk keeps trying
                by itself; meanwhile everything you do here is kept on this computer.
              </div>
            )}
            <Details
              items={[
                [
                  'Last sync',
                  status.last_synced_at
                    ? `${format.relative(status.last_synced_at)} (${format.dateTime(status.last_synced_at)})`
                    : 'Not yet',
                ],
                ['Changes waiting', status.pending > 0 ? changesWaiting(status.pending) : 'None, all sent'],
                [
                  'Connection',
                  status.online ? 'Online' : 'Offline: changes wait here until this computer is back online',
                ],
                ['Conflicts to resolve', status.conflicts > 0 ? format.number(status.conflicts) : 'None'],
              ]}
            />
          </>
        ) : (
          <p className="muted">
            Every computer that syncs keeps the whole business and works offline; changes go out within
            seconds whenever it is online. Add a device below to work on this business from a second computer,
            or join a business that already syncs on another computer.
          </p>
        )}
      </div>
    </Card>
  );
}

/** A failure is told in a toast: the status card above already shows the last error for good. */
function SyncNowButton() {
  const toast = useToast();
  const { busy, perform } = useBusyAction<'sync'>();
  const syncNow = () =>
    perform('sync', async () => {
      try {
        showSyncStatus(await portal.post('/sync/now'));
        toast.show('Synced');
      } finally {
        void refreshSyncStatus();
      }
    });
  return (
    <Button variant="primary" write busy={busy === 'sync'} onClick={syncNow}>
      Sync now
    </Button>
  );
}
