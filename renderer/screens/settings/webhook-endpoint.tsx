import { useState } from 'react';
import type { WebhookDelivery, WebhookEndpoint } from '../../../shared/schemas/webhook';
import { portal } from '../../lib/api';
import { count } from '../../lib/plural';
import { href, navigate } from '../../lib/router';
import { useFormat } from '../../lib/session';
import { usePagedList } from '../../lib/use-resource';
import {
  Badge,
  Button,
  Card,
  ConfirmDialog,
  Dialog,
  EmptyState,
  ErrorNotice,
  Notice,
  StatusBadge,
  useToast,
} from '../../ui';
import { ListFooter } from '../common';
import { useBusyAction } from '../use-busy-action';
import { SecretDialog } from './secret';

const DISABLED_BECAUSE: Record<NonNullable<WebhookEndpoint['disabled_reason']>, string> = {
  manual: 'You disabled it',
  consecutive_failures: 'Shopdesk disabled it after 20 failed attempts in a row',
};

type Busy = 'test' | 'delete' | 'enable' | 'disable' | 'rotate' | `redeliver:${string}`;

/** One endpoint: its state, the actions on it, and its delivery history. */
export function EndpointDetail({ endpoint, onChanged }: { endpoint: WebhookEndpoint; onChanged(): void }) {
  const toast = useToast();
  const format = useFormat();
  const params = { path: { id: endpoint.id } };
  const deliveries = usePagedList(
    (cursor) =>
      portal.get('/webhooks/{id}/deliveries', { params: { ...params, query: { cursor, limit: 25 } } }),
    `deliveries:${endpoint.id}`,
  );
  const { busy, perform } = useBusyAction<Busy>();
  const [open, setOpen] = useState<string>();
  const [confirm, setConfirm] = useState<'delete' | 'rotate'>();
  const [secret, setSecret] = useState<string>();

  const run = (what: Busy, action: () => Promise<unknown>, done: string) =>
    perform(what, async () => {
      await action();
      toast.show(done);
    }).finally(() => setConfirm(undefined));

  // A delivery's first attempt runs right away in the background; give it a moment before showing history.
  const reloadSoon = () => setTimeout(deliveries.reload, 800);

  const sendTest = () =>
    run('test', () => portal.post('/webhooks/{id}/test', { params }), 'Test event sent').then(reloadSoon);
  const enable = async () => {
    if (
      await run(
        'enable',
        () => portal.post('/webhooks/{id}/enable', { params }),
        'Endpoint enabled; waiting deliveries go out now',
      )
    ) {
      onChanged();
      reloadSoon();
    }
  };
  const disable = () =>
    run(
      'disable',
      () => portal.patch('/webhooks/{id}', { params, body: { enabled: false } }),
      'Endpoint disabled; events wait for it',
    ).then((ok) => ok && onChanged());
  const rotate = () =>
    run(
      'rotate',
      async () => setSecret((await portal.post('/webhooks/{id}/rotate-secret', { params })).secret),
      'Signing secret rotated',
    ).then((ok) => ok && onChanged());
  const remove = () =>
    run('delete', () => portal.delete('/webhooks/{id}', { params }), 'Endpoint deleted').then((ok) => {
      if (!ok) return;
      onChanged();
      navigate(href('settings', 'webhooks'));
    });
  const redeliver = (delivery: WebhookDelivery) =>
    run(
      `redeliver:${delivery.id}`,
      () =>
        portal.post('/webhooks/{id}/deliveries/{delivery_id}/redeliver', {
          params: { path: { id: endpoint.id, delivery_id: delivery.id } },
        }),
      `${delivery.event_type} sent again`,
    ).then(reloadSoon);

  return (
    <>
      <Card
        title={
          <span className="row">
            <span className="mono">{endpoint.url}</span>
            {endpoint.enabled ? <Badge tone="success">Enabled</Badge> : <Badge tone="danger">Disabled</Badge>}
          </span>
        }
        actions={
          <>
            <Button size="sm" variant="ghost" write onClick={() => setConfirm('delete')}>
              Delete endpoint
            </Button>
            <Button size="sm" write onClick={() => setConfirm('rotate')}>
              Rotate secret
            </Button>
            {endpoint.enabled ? (
              <Button size="sm" write busy={busy === 'disable'} onClick={disable}>
                Disable
              </Button>
            ) : (
              <Button size="sm" variant="primary" write busy={busy === 'enable'} onClick={enable}>
                Re-enable
              </Button>
            )}
          </>
        }
      >
        <div className="stack">
          {!endpoint.enabled && (
            <Notice tone="warning">
              {endpoint.disabled_reason ? DISABLED_BECAUSE[endpoint.disabled_reason] : 'Disabled'}
              {endpoint.disabled_at && ` (${format.dateTime(endpoint.disabled_at)})`}. Events wait in the
              outbox and go out when you re-enable it.
            </Notice>
          )}
          {endpoint.delivered_by === 'hub' && (
            <Notice>
              The hosted sync hub delivers this endpoint, with every device's events. Its delivery history is
              kept on the hub, so the list below shows only test events sent from this computer.
            </Notice>
          )}
          {endpoint.previous_secret_expires_at && (
            <p className="muted">
              Deliveries are also signed with the previous secret until{' '}
              {format.dateTime(endpoint.previous_secret_expires_at)}, so your receiver can switch over.
            </p>
          )}
          <p className="muted">
            {endpoint.events.includes('*') ? 'All events' : endpoint.events.join(', ')} ·{' '}
            {count(endpoint.consecutive_failures, 'failed attempt', 'failed attempts')} since the last success
          </p>
        </div>
      </Card>
      <Card
        title="Deliveries"
        padded={false}
        actions={
          <>
            <Button size="sm" onClick={deliveries.reload}>
              Refresh
            </Button>
            <Button size="sm" variant="primary" write busy={busy === 'test'} onClick={sendTest}>
              Send test event
            </Button>
          </>
        }
      >
        {deliveries.error && <ErrorNotice error={deliveries.error} onRetry={deliveries.reload} />}
        {deliveries.items.length === 0 && !deliveries.loading ? (
          <EmptyState title="No deliveries yet" icon="⇄">
            Send a test event to check that your endpoint answers.
          </EmptyState>
        ) : (
          <ul className="delivery-list" data-testid="deliveries">
            {deliveries.items.map((delivery) => (
              <li key={delivery.id}>
                <button
                  type="button"
                  className="delivery-row"
                  aria-expanded={open === delivery.id}
                  onClick={() => setOpen(open === delivery.id ? undefined : delivery.id)}
                >
                  <span className="mono">
                    {delivery.event_type}
                    {delivery.redelivery_of && <span className="cell-sub"> · re-sent</span>}
                  </span>
                  <StatusBadge status={delivery.status} />
                  <span className="cell-sub">
                    {delivery.attempt_count}/{delivery.max_attempts} attempts
                    {delivery.last_response_code !== null && ` · HTTP ${delivery.last_response_code}`}
                  </span>
                  <span className="cell-sub">{format.dateTime(delivery.created_at)}</span>
                </button>
                {open === delivery.id && (
                  <DeliveryAttempts
                    delivery={delivery}
                    busy={busy === `redeliver:${delivery.id}`}
                    onRedeliver={() => redeliver(delivery)}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
        {deliveries.items.length > 0 && (
          <ListFooter
            count={deliveries.items.length}
            hasMore={deliveries.hasMore}
            loading={deliveries.loading}
            onMore={deliveries.loadMore}
            noun={['delivery', 'deliveries']}
          />
        )}
      </Card>
      <ConfirmDialog
        open={confirm === 'delete'}
        onClose={() => setConfirm(undefined)}
        title="Delete this endpoint?"
        confirmLabel="Delete endpoint"
        busy={busy === 'delete'}
        onConfirm={remove}
      >
        <p>
          <span className="mono">{endpoint.url}</span> stops receiving events. Its waiting deliveries and its
          delivery history are deleted with it.
        </p>
      </ConfirmDialog>
      <Dialog
        open={confirm === 'rotate'}
        onClose={() => setConfirm(undefined)}
        title="Rotate the signing secret?"
        footer={
          <>
            <Button onClick={() => setConfirm(undefined)}>Cancel</Button>
            <Button variant="primary" write busy={busy === 'rotate'} onClick={rotate}>
              Rotate secret
            </Button>
          </>
        }
      >
        <p>
          Shopdesk makes a new secret and shows it once. For 24 hours each delivery carries two signatures,
          the new one first, so your receiver keeps working while you update it.
        </p>
      </Dialog>
      <SecretDialog
        title="New signing secret"
        label="signing secret"
        secret={secret}
        onClose={() => setSecret(undefined)}
      />
    </>
  );
}

function DeliveryAttempts({
  delivery,
  busy,
  onRedeliver,
}: {
  delivery: WebhookDelivery;
  busy: boolean;
  onRedeliver(): void;
}) {
  const format = useFormat();
  const done = delivery.status === 'succeeded' || delivery.status === 'failed';
  return (
    <ol className="attempts">
      {delivery.attempts.map((attempt) => (
        <li key={attempt.attempt}>
          <div className="row">
            <strong>Attempt {attempt.attempt}</strong>
            <StatusBadge status={attempt.status} />
            <span className="cell-sub">
              {format.dateTime(attempt.attempted_at)} · {attempt.duration_ms} ms
              {attempt.response_code !== null && ` · HTTP ${attempt.response_code}`}
            </span>
          </div>
          {attempt.error && <p className="field-error">{attempt.error}</p>}
          {attempt.response_body && <pre className="response-body">{attempt.response_body}</pre>}
          {attempt.next_attempt_at && (
            <p className="cell-sub">Next attempt {format.dateTime(attempt.next_attempt_at)}</p>
          )}
        </li>
      ))}
      {delivery.attempts.length === 0 && <li className="muted">Waiting for the first attempt.</li>}
      {done && (
        <li className="attempts-actions">
          <Button size="sm" write busy={busy} onClick={onRedeliver}>
            Send again
          </Button>
          <span className="cell-sub">A new delivery of the same event, one attempt.</span>
        </li>
      )}
    </ol>
  );
}
