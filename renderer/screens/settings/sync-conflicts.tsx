import type { SyncConflict } from '../../../shared/schemas/sync';
import { portal } from '../../lib/api';
import { href } from '../../lib/router';
import { useFormat } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { refreshSyncStatus } from '../../lib/use-sync-status';
import { Button, Card } from '../../ui';
import { Loaded } from '../common';
import { useBusyAction } from '../use-busy-action';

const RECORD_SCREENS: Record<SyncConflict['record_type'], string> = {
  invoice: 'invoices',
  job: 'jobs',
  quote: 'quotes',
};

/**
 * What the merge rules could not settle on their own. `count` comes from the polled status, so a
 * conflict arriving with a sync reloads the list.
 */
export function SyncConflicts({ count }: { count: number }) {
  const format = useFormat();
  const conflicts = useResource(() => portal.get('/sync/conflicts'), `sync-conflicts:${count}`);
  const { busy, perform } = useBusyAction<string>();
  const resolve = (conflict: SyncConflict) =>
    perform(conflict.id, async () => {
      await portal.post('/sync/conflicts/{conflict_id}/resolve', {
        params: { path: { conflict_id: conflict.id } },
      });
      conflicts.set({ data: (conflicts.data?.data ?? []).filter((c) => c.id !== conflict.id) });
      await refreshSyncStatus();
    });
  return (
    <Card title="Needs your decision">
      <Loaded resource={conflicts} rows={2}>
        {(page) => (
          <ul className="sync-conflicts">
            {page.data.map((conflict) => (
              <li key={conflict.id}>
                <p>{conflict.message}</p>
                <div className="spread">
                  <span className="row">
                    <a href={href(RECORD_SCREENS[conflict.record_type], conflict.record_id)}>
                      Open the {conflict.record_type}
                    </a>
                    <span className="muted">Found {format.relative(conflict.detected_at)}</span>
                  </span>
                  <Button size="sm" write busy={busy === conflict.id} onClick={() => resolve(conflict)}>
                    Mark as dealt with
                  </Button>
                </div>
              </li>
            ))}
          </ul>
        )}
      </Loaded>
    </Card>
  );
}
