import { portal } from '../lib/api';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { Badge, Button, Card, EmptyState } from '../ui';
import { useBusyAction } from './use-busy-action';

const FIELD_LABELS: Record<string, string> = {
  name: 'Name',
  email: 'E-mail',
  phone: 'Phone',
  address: 'Address',
  customer_id: 'Customer',
  issue_date: 'Issue date',
  due_date: 'Due date',
  valid_until: 'Valid until',
  notes: 'Notes',
  status: 'Status',
  title: 'Title',
  scheduled_start: 'Starts',
  scheduled_end: 'Ends',
  price_cents: 'Price',
};

function shown(value: unknown): string {
  if (value === null || value === undefined || value === '') return '(empty)';
  return String(value);
}

function deviceName(device: { node: string; this_device: boolean; name: string | null }): string {
  if (device.this_device) return 'this computer';
  return device.name ?? `another computer (${device.node.slice(0, 6)})`;
}

/**
 * A record's history as this computer saw it (docs/sync.md, "Decisions and history"): each field
 * change, who made it (a member, an API key, a customer, Shopdesk itself) and on which computer; a value typed here that a sync replaced is marked, with "Put back".
 * `record` is `customers/{id}`, `invoices/{id}`, `quotes/{id}` or `jobs/{id}`; `version` reloads it
 * when the page's record changed; `onRestored` lets the page show the value put back.
 */
export function RecordHistoryCard({
  record,
  version,
  onRestored,
}: {
  record: string;
  version?: string;
  onRestored(): void;
}) {
  const format = useFormat();
  const key = `${record}:${version ?? ''}`;
  const history = useResource(
    () => portal.get('/history', { params: { query: { record } } }).then((r) => r.data),
    key,
  );
  const { busy, perform } = useBusyAction<string>();
  const entries = history.data ?? [];
  return (
    <Card title="History" padded={false} className="record-history">
      {entries.length === 0 ? (
        <EmptyState title={history.loading ? 'Loading…' : 'No changes yet'} icon="↺" />
      ) : (
        <ul className="history-list">
          {entries.map((entry) => (
            <li key={entry.id} className={entry.replaced ? 'history-entry replaced' : 'history-entry'}>
              <div className="history-change">
                <strong>{FIELD_LABELS[entry.field] ?? entry.field}</strong>{' '}
                <span className="history-old">{shown(entry.old_value)}</span> →{' '}
                <span className="history-new">{shown(entry.new_value)}</span>
                {entry.replaced && (
                  <>
                    {' '}
                    <Badge tone="warning">Replaced</Badge>
                  </>
                )}
              </div>
              <div className="history-meta">
                {entry.author_kind === 'sync' ? 'By sync, from ' : `By ${entry.author_name} on `}
                {deviceName(entry.device)}
                {' · '}
                {format.dateTime(entry.changed_at)}
                {entry.replaced && entry.restored_at && ` · put back ${format.dateTime(entry.restored_at)}`}
              </div>
              {entry.replaced && !entry.restored_at && (
                <p className="history-note">
                  Your edit here ({shown(entry.old_value)}) was replaced by a later one from another computer.
                </p>
              )}
              {entry.restorable && (
                <Button
                  write
                  size="sm"
                  busy={busy === entry.id}
                  onClick={() =>
                    perform(entry.id, async () => {
                      await portal.post('/history/{entry_id}/restore', {
                        params: { path: { entry_id: entry.id } },
                      });
                      history.reload();
                      onRestored();
                    })
                  }
                >
                  Put back {shown(entry.old_value)}
                </Button>
              )}
            </li>
          ))}
        </ul>
      )}
    </Card>
  );
}
