import { useEffect, useState } from 'react';
import type { DesktopApi } from '../../../shared/desktop-api';
import { Badge, Button, Card, Checkbox, Details } from '../../ui';

type UpdateStatus = Awaited<ReturnType<DesktopApi['updates']['getStatus']>>;

/** Settings the desktop shell owns (shown only when running inside it). */
export function DesktopSettings({ desktop }: { desktop: DesktopApi }) {
  const [version, setVersion] = useState<string>();
  const [online, setOnline] = useState<boolean>();
  const [updates, setUpdates] = useState<{ enabled: boolean; feedUrl: string | null }>();
  const [status, setStatus] = useState<UpdateStatus>();

  useEffect(() => {
    desktop.appVersion().then(setVersion);
    desktop.isOnline().then(setOnline);
    desktop.updates.getSettings().then(setUpdates);
    desktop.updates.getStatus().then(setStatus);
    const offOnline = desktop.onOnlineChange(setOnline);
    const offStatus = desktop.updates.onStatusChange(setStatus);
    return () => {
      offOnline();
      offStatus();
    };
  }, [desktop]);

  const toggle = async (enabled: boolean) => {
    await desktop.updates.setEnabled(enabled);
    setUpdates(await desktop.updates.getSettings());
  };

  const network =
    online === undefined ? (
      '…'
    ) : (
      <Badge tone={online ? 'success' : 'warning'}>{online ? 'Online' : 'Offline'}</Badge>
    );

  return (
    <div className="stack">
      <Card title="This computer">
        <Details
          items={[
            ['Shopdesk version', version],
            ['Network', network],
          ]}
        />
      </Card>
      <Card title="Updates">
        <Checkbox
          label="Download and install updates automatically"
          checked={updates?.enabled ?? false}
          disabled={!updates}
          onChange={(e) => toggle(e.target.checked)}
        />
        {status && (
          <p className="muted">
            Status: {status.state}
            {status.version && ` (${status.version})`}
            {status.message && ` — ${status.message}`}
          </p>
        )}
        {status?.state === 'downloaded' && (
          <Button variant="primary" onClick={() => desktop.updates.restartToUpdate()}>
            Restart to update
          </Button>
        )}
      </Card>
    </div>
  );
}
