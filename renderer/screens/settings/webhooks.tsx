import { useState } from 'react';
import type {
  WebhookDelivery,
  WebhookEndpoint,
  WebhookEndpointWithSecret,
} from '../../../shared/schemas/webhook';
import { api, type ListPage } from '../../lib/api';
import { href, navigate } from '../../lib/router';
import { useFormat } from '../../lib/session';
import { usePagedList, useResource } from '../../lib/use-resource';
import {
  Badge,
  Button,
  Card,
  Dialog,
  EmptyState,
  ErrorNotice,
  Field,
  fieldError,
  formError,
  Input,
  StatusBadge,
  Table,
  useToast,
} from '../../ui';
import { ListFooter, Loaded } from '../common';
import { SecretOnce } from './secret';

export function WebhookSettings({ selected }: { selected?: string }) {
  const endpoints = useResource(
    () => api.get<ListPage<WebhookEndpoint>>('/webhooks', { limit: 100 }),
    'webhooks',
  );
  const [creating, setCreating] = useState(false);
  const [secret, setSecret] = useState<string>();
  return (
    <div className="stack">
      <Card
        title="Webhook endpoints"
        padded={false}
        actions={
          <Button variant="primary" write onClick={() => setCreating(true)}>
            Add endpoint
          </Button>
        }
      >
        <Loaded resource={endpoints} rows={3}>
          {(page) =>
            page.data.length === 0 ? (
              <EmptyState title="No endpoints yet" icon="⇄">
                Shopdesk sends signed events (booking.created, invoice.paid, …) to the URLs you add here: 3
                attempts, at 0 s, 10 s and 60 s.
              </EmptyState>
            ) : (
              <Table
                caption="Webhook endpoints"
                rows={page.data}
                rowKey={(e) => e.id}
                rowHref={(e) => href('settings', 'webhooks', e.id)}
                columns={[
                  {
                    header: 'URL',
                    cell: (e) => (
                      <>
                        <div className="cell-title mono">{e.url}</div>
                        {e.description && <div className="cell-sub">{e.description}</div>}
                      </>
                    ),
                  },
                  {
                    header: 'Events',
                    cell: (e) => (e.events.includes('*') ? 'All events' : e.events.join(', ')),
                  },
                  {
                    header: 'Status',
                    cell: (e) =>
                      e.enabled ? (
                        <Badge tone="success">Enabled</Badge>
                      ) : (
                        <Badge tone="danger">Disabled</Badge>
                      ),
                  },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
      {selected && <EndpointDetail id={selected} onDeleted={endpoints.reload} />}
      <NewEndpointDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(endpoint) => {
          setCreating(false);
          setSecret(endpoint.secret);
          endpoints.reload();
          navigate(href('settings', 'webhooks', endpoint.id));
        }}
      />
      <Dialog
        open={Boolean(secret)}
        onClose={() => setSecret(undefined)}
        title="Signing secret"
        footer={
          <Button variant="primary" onClick={() => setSecret(undefined)}>
            Done
          </Button>
        }
      >
        {secret && (
          <>
            <SecretOnce label="signing secret" secret={secret} />
            <p className="muted">
              Verify each delivery: <code>X-Service-Signature: v1=HMAC-SHA256(secret, "timestamp.body")</code>
              .
            </p>
          </>
        )}
      </Dialog>
    </div>
  );
}

function EndpointDetail({ id, onDeleted }: { id: string; onDeleted(): void }) {
  const toast = useToast();
  const format = useFormat();
  const path = `/webhooks/${encodeURIComponent(id)}`;
  const deliveries = usePagedList(
    (cursor) => api.get<ListPage<WebhookDelivery>>(`${path}/deliveries`, { cursor, limit: 25 }),
    path,
  );
  const [busy, setBusy] = useState<string>();
  const [open, setOpen] = useState<string>();

  const sendTest = async () => {
    setBusy('test');
    try {
      await api.post(`${path}/test`);
      toast.show('Test event sent');
      // The first attempt runs right away in the background; give it a moment before showing history.
      setTimeout(deliveries.reload, 800);
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
    }
  };
  const remove = async () => {
    setBusy('delete');
    try {
      await api.delete(path);
      toast.show('Endpoint deleted');
      onDeleted();
      navigate(href('settings', 'webhooks'));
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setBusy(undefined);
    }
  };

  return (
    <Card
      title="Deliveries"
      padded={false}
      actions={
        <>
          <Button size="sm" onClick={deliveries.reload}>
            Refresh
          </Button>
          <Button size="sm" variant="danger" write busy={busy === 'delete'} onClick={remove}>
            Delete endpoint
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
                <span className="mono">{delivery.event_type}</span>
                <StatusBadge status={delivery.status} />
                <span className="cell-sub">
                  {delivery.attempt_count}/{delivery.max_attempts} attempts
                  {delivery.last_response_code !== null && ` · HTTP ${delivery.last_response_code}`}
                </span>
                <span className="cell-sub">{format.dateTime(delivery.created_at)}</span>
              </button>
              {open === delivery.id && (
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
                  {delivery.attempts.length === 0 && (
                    <li className="muted">Waiting for the first attempt.</li>
                  )}
                </ol>
              )}
            </li>
          ))}
        </ul>
      )}
      <ListFooter
        count={deliveries.items.length}
        hasMore={deliveries.hasMore}
        loading={deliveries.loading}
        onMore={deliveries.loadMore}
        noun="deliveries"
      />
    </Card>
  );
}

function NewEndpointDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(endpoint: WebhookEndpointWithSecret): void;
}) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const endpoint = await api.post<WebhookEndpointWithSecret>('/webhooks', {
        url: url.trim(),
        ...(description.trim() && { description: description.trim() }),
      });
      setUrl('');
      setDescription('');
      onCreated(endpoint);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };
  const general = formError(error, ['url', 'description']);
  return (
    <Dialog open={open} onClose={onClose} title="Add a webhook endpoint">
      <form className="stack" onSubmit={submit} noValidate>
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <Field label="URL" hint="http or https; it receives every event" error={fieldError(error, 'url')}>
          <Input
            type="url"
            value={url}
            onChange={(e) => setUrl(e.target.value)}
            placeholder="https://example.com/hooks/shopdesk"
            autoFocus
          />
        </Field>
        <Field label="Description" hint="Optional" error={fieldError(error, 'description')}>
          <Input value={description} onChange={(e) => setDescription(e.target.value)} />
        </Field>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write>
            Add endpoint
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
