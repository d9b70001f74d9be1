import { useState } from 'react';
import type { WebhookEndpoint, WebhookEndpointWithSecret } from '../../../shared/schemas/webhook';
import { portal } from '../../lib/api';
import { href, navigate } from '../../lib/router';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import { useSyncStatus } from '../../lib/use-sync-status';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Dialog,
  EmptyState,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  Table,
} from '../../ui';
import { Loaded } from '../common';
import { SecretDialog } from './secret';
import { EndpointDetail } from './webhook-endpoint';

export function WebhookSettings({ selected }: { selected?: string }) {
  const endpoints = useResource(
    () => portal.get('/webhooks', { params: { query: { limit: 100 } } }),
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
                    cell: (e) => (
                      <span className="row">
                        {e.enabled ? (
                          <Badge tone="success">Enabled</Badge>
                        ) : (
                          <Badge tone="danger">Disabled</Badge>
                        )}
                        {e.delivered_by === 'hub' && <Badge>Hub delivers</Badge>}
                      </span>
                    ),
                  },
                ]}
              />
            )
          }
        </Loaded>
      </Card>
      <LocalTargets />
      {selected && endpoints.data && (
        <SelectedEndpoint endpoints={endpoints.data.data} id={selected} onChanged={endpoints.reload} />
      )}
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
      <SecretDialog
        title="Signing secret"
        label="signing secret"
        secret={secret}
        onClose={() => setSecret(undefined)}
      >
        <p className="muted">
          Verify each delivery: <code>X-Service-Signature: v1=HMAC-SHA256(secret, "timestamp.body")</code>.
        </p>
      </SecretDialog>
    </div>
  );
}

/** The owner's permission for endpoints on this machine or the local network (SSRF: see docs/webhooks.md). */
function LocalTargets() {
  const config = useResource(() => portal.get('/config'), 'config');
  const { error, run } = useSubmit();
  const change = (allow: boolean) =>
    run(async () => config.set(await portal.put('/config', { body: { allow_local_webhooks: allow } })));
  return (
    <Card title="Local network">
      <FormAlert error={error} params={[]} />
      {config.data && (
        <Checkbox
          label="Allow endpoints on this computer or the local network (localhost, 192.168.…, 10.…)"
          checked={config.data.allow_local_webhooks}
          onChange={(e) => void change(e.target.checked)}
        />
      )}
      <p className="muted">
        Leave this off unless you run a receiver on your own network: an integration could otherwise point
        Shopdesk at devices only your network can reach.
      </p>
    </Card>
  );
}

function SelectedEndpoint({
  endpoints,
  id,
  onChanged,
}: {
  endpoints: WebhookEndpoint[];
  id: string;
  onChanged(): void;
}) {
  const endpoint = endpoints.find((e) => e.id === id);
  if (!endpoint) {
    return (
      <Card>
        <EmptyState
          title="No such endpoint"
          icon="⇄"
          action={<a href={href('settings', 'webhooks')}>All endpoints</a>}
        >
          It may have been deleted.
        </EmptyState>
      </Card>
    );
  }
  return <EndpointDetail key={endpoint.id} endpoint={endpoint} onChanged={onChanged} />;
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
  const [byHub, setByHub] = useState(false);
  const { busy, error, run } = useSubmit();
  const syncs = (useSyncStatus().status?.role ?? 'standalone') !== 'standalone';
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const endpoint = await portal.post('/webhooks', {
        body: {
          url: url.trim(),
          ...(description.trim() && { description: description.trim() }),
          ...(syncs && byHub && { delivered_by: 'hub' }),
        },
      });
      setUrl('');
      setDescription('');
      setByHub(false);
      onCreated(endpoint);
    });
  };
  return (
    <Dialog open={open} onClose={onClose} title="Add a webhook endpoint">
      <form className="stack" onSubmit={submit} noValidate>
        <FormAlert error={error} params={['url', 'description']} />
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
        {syncs && (
          <Checkbox
            label="Let the hosted sync hub deliver it: every device's events go out from the hub, even while this computer is off (needs the hub online now)"
            checked={byHub}
            onChange={(e) => setByHub(e.target.checked)}
          />
        )}
        <FormActions onCancel={onClose} submitLabel="Add endpoint" busy={busy} />
      </form>
    </Dialog>
  );
}
