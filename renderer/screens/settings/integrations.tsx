import { useState } from 'react';
import type { ApiKey, ApiKeyWithSecret, Scope } from '../../../shared/schemas/api-key';
import { portal, portalUrl } from '../../lib/api';
import { useFormat, useSession } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  ConfirmDialog,
  Dialog,
  EmptyState,
  ErrorNotice,
  Field,
  Input,
  Select,
  Table,
  useToast,
} from '../../ui';
import { Loaded } from '../common';
import { useBusyAction } from '../use-busy-action';
import { SecretDialog } from './secret';

export function IntegrationSettings() {
  const { session } = useSession();
  const format = useFormat();
  const toast = useToast();
  const integrations = useResource(() => portal.get('/integrations'), 'integrations');
  const [revealed, setRevealed] = useState<{ title: string; key: ApiKeyWithSecret }>();
  const [creating, setCreating] = useState(false);
  const [confirmRevoke, setConfirmRevoke] = useState<ApiKey>();
  const { busy, perform } = useBusyAction<string>();

  const run = (id: string, action: () => Promise<ApiKeyWithSecret | ApiKey>, title?: string) =>
    perform(id, async () => {
      const result = await action();
      if (title && 'key' in result) setRevealed({ title, key: result });
      integrations.reload();
    });

  const feedUrl = (token: string) => `${window.location.origin}${portalUrl('/calendar.ics')}?token=${token}`;

  return (
    <Loaded resource={integrations}>
      {(data) => (
        <div className="stack">
          <Card title="Portal API key">
            <p className="muted">
              For tools that call the portal API (<code>/api/portal/{session.client_id}</code>) with{' '}
              <code>Authorization: Bearer …</code>. 100 requests a minute.
            </p>
            <div className="spread">
              <span>
                {data.portal_key ? (
                  <code>{data.portal_key.redacted}</code>
                ) : (
                  <span className="muted">No portal key yet.</span>
                )}
              </span>
              <Button
                write
                busy={busy === 'portal'}
                onClick={() => run('portal', () => portal.post('/integrations/portal-key'), 'New portal key')}
              >
                {data.portal_key ? 'Regenerate' : 'Create key'}
              </Button>
            </div>
          </Card>
          <Card
            title="v1 API keys"
            actions={
              <Button variant="primary" write onClick={() => setCreating(true)}>
                New v1 key
              </Button>
            }
            padded={false}
          >
            {session.api_plan === 'none' && (
              <div className="card-body">
                <p className="muted">
                  The v1 API needs an SMB Developer plan; keys you create here work once it is on.
                </p>
              </div>
            )}
            {data.v1_keys.length === 0 ? (
              <EmptyState title="No v1 keys" icon="⚿">
                Create a key for your website, booking widget or accounting sync.
              </EmptyState>
            ) : (
              <Table
                caption="v1 API keys"
                rows={data.v1_keys}
                rowKey={(k) => k.id}
                columns={[
                  {
                    header: 'Key',
                    cell: (k) => (
                      <>
                        <div className="cell-title">{k.name ?? 'Unnamed key'}</div>
                        <code className="cell-sub">{k.redacted}</code>
                      </>
                    ),
                  },
                  { header: 'Scopes', cell: (k) => k.scopes.join(', ') },
                  {
                    header: 'Status',
                    cell: (k) =>
                      k.revoked_at ? (
                        <Badge>Revoked</Badge>
                      ) : (
                        <>
                          <Badge tone={k.mode === 'live' ? 'success' : 'warning'}>{k.mode}</Badge>
                          {k.previous_secret_expires_at && (
                            <div className="cell-sub">
                              Old secret works until {format.dateTime(k.previous_secret_expires_at)}
                            </div>
                          )}
                        </>
                      ),
                  },
                  {
                    header: 'Last used',
                    cell: (k) => (k.last_used_at ? format.relative(k.last_used_at) : 'Never'),
                  },
                  {
                    header: <span className="sr-only">Actions</span>,
                    align: 'right',
                    cell: (k) =>
                      !k.revoked_at && (
                        <span className="row">
                          <Button
                            size="sm"
                            write
                            busy={busy === `rotate:${k.id}`}
                            onClick={() =>
                              run(
                                `rotate:${k.id}`,
                                () =>
                                  portal.post('/keys/{key_id}/rotate', {
                                    params: { path: { key_id: k.id } },
                                  }),
                                'Rotated key',
                              )
                            }
                          >
                            Rotate
                          </Button>
                          <Button size="sm" variant="danger" write onClick={() => setConfirmRevoke(k)}>
                            Revoke
                          </Button>
                        </span>
                      ),
                  },
                ]}
              />
            )}
          </Card>
          <Card title="Calendar feed">
            <p className="muted">
              Scheduled jobs and confirmed bookings, for a calendar app to subscribe to. Anyone with the link
              can read the calendar; replace it to cut off old subscribers.
            </p>
            <ul className="muted" data-testid="feed-reach">
              <li>
                <strong>On this computer</strong> (Apple Calendar, Outlook, Thunderbird): the link works as it
                is.
              </li>
              <li>
                <strong>Phones and Google Calendar</strong> fetch the feed from elsewhere and cannot reach
                this computer's <code>127.0.0.1</code> address: they need an address they can reach.
                <details>
                  <summary>How to set that up</summary>
                  <p>
                    A phone on the same network: start Shopdesk with{' '}
                    <code>npm run serve -- --host 0.0.0.0</code> and replace <code>127.0.0.1</code> in the
                    link with this computer's network address (such as 192.168.1.20); keep this computer
                    awake.
                  </p>
                  <p>
                    Google Calendar reads subscriptions from Google's servers on the internet, so it needs the
                    feed at a public HTTPS address (a reverse proxy or tunnel in front of Shopdesk). The full
                    steps are in docs/calendar-feed.md.
                  </p>
                </details>
              </li>
            </ul>
            <div className="spread">
              <span>
                {data.feed_token ? (
                  <code>{data.feed_token.redacted}</code>
                ) : (
                  <span className="muted">No feed link yet.</span>
                )}
              </span>
              <Button
                write
                busy={busy === 'feed'}
                onClick={() =>
                  run('feed', () => portal.post('/integrations/feed-token'), 'Calendar feed link')
                }
              >
                {data.feed_token ? 'Replace link' : 'Create link'}
              </Button>
            </div>
          </Card>
          <SecretDialog
            title={revealed?.title ?? ''}
            label={revealed?.key.kind === 'feed' ? 'link' : 'key'}
            secret={revealed && (revealed.key.kind === 'feed' ? feedUrl(revealed.key.key) : revealed.key.key)}
            onClose={() => setRevealed(undefined)}
          />
          <NewKeyDialog
            open={creating}
            onClose={() => setCreating(false)}
            onCreated={(key) => {
              setCreating(false);
              setRevealed({ title: 'New v1 key', key });
              integrations.reload();
            }}
          />
          <ConfirmDialog
            open={Boolean(confirmRevoke)}
            onClose={() => setConfirmRevoke(undefined)}
            title="Revoke this key?"
            confirmLabel="Revoke key"
            busy={busy === 'revoke'}
            onConfirm={async () => {
              const key = confirmRevoke!;
              await run('revoke', () =>
                portal.delete('/keys/{key_id}', { params: { path: { key_id: key.id } } }),
              );
              setConfirmRevoke(undefined);
              toast.show('Key revoked');
            }}
          >
            <p>
              Anything using <code>{confirmRevoke?.redacted}</code> stops working at once, including a rotated
              key's old secret.
            </p>
          </ConfirmDialog>
        </div>
      )}
    </Loaded>
  );
}

function NewKeyDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(key: ApiKeyWithSecret): void;
}) {
  const [name, setName] = useState('');
  const [mode, setMode] = useState<'live' | 'test'>('live');
  const [scopes, setScopes] = useState<Scope[]>(['read', 'write']);
  const { busy, error, run } = useSubmit();
  const toggle = (scope: Scope) =>
    setScopes((all) => (all.includes(scope) ? all.filter((s) => s !== scope) : [...all, scope]));
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const key = await portal.post('/keys', {
        body: {
          mode,
          scopes,
          ...(name.trim() && { name: name.trim() }),
        },
      });
      setName('');
      onCreated(key);
    });
  };
  return (
    <Dialog open={open} onClose={onClose} title="New v1 API key">
      <form className="stack" onSubmit={submit} noValidate>
        {error instanceof Error && <ErrorNotice error={error} />}
        <Field label="Name" hint="So you recognise it later, e.g. Website booking form">
          <Input value={name} onChange={(e) => setName(e.target.value)} autoFocus />
        </Field>
        <Field label="Mode">
          <Select value={mode} onChange={(e) => setMode(e.target.value as 'live' | 'test')}>
            <option value="live">Live (sd_live_…)</option>
            <option value="test">Test (sd_test_…)</option>
          </Select>
        </Field>
        <fieldset className="fieldset">
          <legend>Scopes</legend>
          <div className="scope-list">
            <Checkbox label="Read" checked={scopes.includes('read')} onChange={() => toggle('read')} />
            <Checkbox label="Write" checked={scopes.includes('write')} onChange={() => toggle('write')} />
          </div>
        </fieldset>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write disabled={scopes.length === 0}>
            Create key
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
