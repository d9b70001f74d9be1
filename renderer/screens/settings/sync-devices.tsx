import { useState } from 'react';
import type { SyncDevice } from '../../../shared/schemas/sync';
import { portal } from '../../lib/api';
import { useFormat } from '../../lib/session';
import { refreshSyncStatus } from '../../lib/use-sync-status';
import { Badge, Button, Card, ConfirmDialog, Table, useToast } from '../../ui';
import { useBusyAction } from '../use-busy-action';

/** On the hub: every computer paired with the business, and a way to cut one off. */
export function SyncDevices({ devices }: { devices: SyncDevice[] }) {
  const format = useFormat();
  const toast = useToast();
  const [removing, setRemoving] = useState<SyncDevice>();
  const { busy, perform } = useBusyAction<'remove'>();
  const remove = (device: SyncDevice) =>
    perform('remove', async () => {
      await portal.delete('/sync/devices/{device_id}', { params: { path: { device_id: device.id } } });
      setRemoving(undefined);
      toast.show(`${device.name} removed: it no longer syncs`);
      await refreshSyncStatus();
    });
  return (
    <Card title="Devices" padded={false}>
      <Table
        caption="Devices of this business"
        rows={devices}
        rowKey={(d) => d.id}
        columns={[
          {
            header: 'Device',
            cell: (d) => (
              <>
                <div className="cell-title">{d.name}</div>
                {d.role === 'hub' && <div className="cell-sub">This computer</div>}
              </>
            ),
          },
          { header: 'Code', cell: (d) => <code>{d.code}</code> },
          { header: 'Paired', cell: (d) => format.dateOf(d.created_at) },
          {
            header: 'Last seen',
            cell: (d) =>
              d.role === 'hub' ? '—' : d.last_seen_at ? format.relative(d.last_seen_at) : 'Never',
          },
          {
            header: 'Status',
            cell: (d) =>
              d.revoked_at ? (
                <Badge>Removed {format.dateOf(d.revoked_at)}</Badge>
              ) : d.role === 'hub' ? (
                <Badge tone="info">Hub</Badge>
              ) : (
                <Badge tone="success">Syncing</Badge>
              ),
          },
          {
            header: <span className="sr-only">Actions</span>,
            align: 'right',
            cell: (d) =>
              d.role === 'device' &&
              !d.revoked_at && (
                <Button size="sm" variant="danger" write onClick={() => setRemoving(d)}>
                  Remove
                </Button>
              ),
          },
        ]}
      />
      <ConfirmDialog
        open={Boolean(removing)}
        onClose={() => setRemoving(undefined)}
        title={`Remove ${removing?.name ?? 'this device'}?`}
        confirmLabel="Remove device"
        busy={busy === 'remove'}
        onConfirm={() => removing && remove(removing)}
      >
        <p>
          It stops syncing at once: what it holds stays on it, but its changes no longer reach this business
          and it receives nothing new. To sync it again, pair it with a new code.
        </p>
      </ConfirmDialog>
    </Card>
  );
}
