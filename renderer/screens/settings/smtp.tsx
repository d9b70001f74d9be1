import { useState } from 'react';
import type { Config, ConfigUpdate, SmtpTestResult } from '../../../shared/schemas/config';
import { portal } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useSubmit } from '../../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  Checkbox,
  Field,
  FormAlert,
  fieldError,
  Input,
  Notice,
  useToast,
} from '../../ui';

type Smtp = NonNullable<Config['smtp']>;

interface Draft {
  host: string;
  port: string;
  secure: boolean;
  user: string;
  password: string;
  from: string;
}

const toDraft = (smtp: Config['smtp']): Draft => ({
  host: smtp?.host ?? '',
  port: String(smtp?.port ?? 587),
  secure: smtp?.secure ?? false,
  user: smtp?.user ?? '',
  password: '',
  from: smtp?.from ?? '',
});

/**
 * The mail server invoices, quotes and win-back notes go out through. The password is write-only:
 * the server only says whether one is set, and a save without a new one keeps it.
 */
export function SmtpSettings({ config, onSaved }: { config: Config; onSaved(config: Config): void }) {
  const { canWrite } = useSession();
  const toast = useToast();
  const smtp: Smtp | null = config.smtp;
  const [draft, setDraft] = useState(() => toDraft(smtp));
  const [replacingPassword, setReplacingPassword] = useState(!smtp?.password_set);
  const { running: busy, error, run } = useSubmit<'save' | 'off' | 'test'>();
  const [tested, setTested] = useState<SmtpTestResult>();
  const set =
    (field: 'host' | 'port' | 'user' | 'password' | 'from') => (e: React.ChangeEvent<HTMLInputElement>) =>
      setDraft({ ...draft, [field]: e.target.value });

  const save = (update: ConfigUpdate, what: 'save' | 'off', message: string) => {
    setTested(undefined);
    return run(async () => {
      const saved = await portal.put('/config', { body: update });
      onSaved(saved);
      setDraft(toDraft(saved.smtp));
      setReplacingPassword(!saved.smtp?.password_set);
      toast.show(message);
    }, what);
  };

  const sendTest = () => {
    setTested(undefined);
    return run(async () => setTested(await portal.post('/config/smtp/test', { body: {} })), 'test');
  };

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const port = draft.port.trim() === '' ? Number.NaN : Number(draft.port);
    save(
      {
        smtp: {
          host: draft.host.trim(),
          port,
          secure: draft.secure,
          ...(draft.user.trim() && { user: draft.user.trim() }),
          ...(replacingPassword && draft.password && { password: draft.password }),
          ...(draft.from.trim() && { from: draft.from.trim() }),
        },
      },
      'save',
      'E-mail settings saved; waiting e-mails go out now',
    );
  };

  const params = ['smtp', 'smtp.host', 'smtp.port', 'smtp.secure', 'smtp.user', 'smtp.password', 'smtp.from'];
  return (
    <Card
      title={
        <span className="row">
          E-mail (SMTP){' '}
          {smtp ? <Badge tone="success">Set up</Badge> : <Badge tone="warning">Not set up</Badge>}
        </span>
      }
    >
      <form className="stack" onSubmit={submit} noValidate aria-label="E-mail settings">
        <p className="muted">
          Invoices, quotes and win-back e-mails go out through your mail provider’s SMTP server. Until it is
          set up they wait in <a href="#/messages">Messages</a>.
        </p>
        {smtp && !smtp.from && !config.business_email && (
          <Notice tone="warning">
            Add a From address (or a business e-mail above): without one, e-mails keep waiting.
          </Notice>
        )}
        <FormAlert error={error} params={params.slice(1)} />
        <div className="form-grid">
          <Field label="SMTP server" hint="e.g. smtp.fastmail.com" error={fieldError(error, 'smtp.host')}>
            <Input value={draft.host} onChange={set('host')} disabled={!canWrite} autoComplete="off" />
          </Field>
          <Field label="Port" hint="587 (STARTTLS) or 465 (TLS)" error={fieldError(error, 'smtp.port')}>
            <Input
              type="number"
              min={1}
              max={65535}
              value={draft.port}
              onChange={set('port')}
              disabled={!canWrite}
              className="input input-narrow"
            />
          </Field>
          <Field label="User name" hint="Often your e-mail address" error={fieldError(error, 'smtp.user')}>
            <Input value={draft.user} onChange={set('user')} disabled={!canWrite} autoComplete="off" />
          </Field>
          {replacingPassword ? (
            <Field
              label="Password"
              hint={smtp?.password_set ? 'Replaces the stored password' : 'Stored on this computer only'}
              error={fieldError(error, 'smtp.password')}
            >
              <Input
                type="password"
                value={draft.password}
                onChange={set('password')}
                disabled={!canWrite}
                autoComplete="new-password"
              />
            </Field>
          ) : (
            <div className="field">
              <span className="field-label">Password</span>
              <div className="row">
                <Badge tone="success">Set</Badge>
                <Button size="sm" write onClick={() => setReplacingPassword(true)}>
                  Replace password
                </Button>
              </div>
              <p className="field-hint">Never shown again; saving without a new one keeps it.</p>
            </div>
          )}
          <Field
            label="From address"
            hint={`Optional; defaults to your business e-mail${config.business_email ? ` (${config.business_email})` : ''}`}
            error={fieldError(error, 'smtp.from')}
          >
            <Input type="email" value={draft.from} onChange={set('from')} disabled={!canWrite} />
          </Field>
          <div className="field field-check">
            <Checkbox
              label="Use TLS from the start (port 465)"
              checked={draft.secure}
              disabled={!canWrite}
              onChange={(e) => setDraft({ ...draft, secure: e.target.checked })}
            />
          </div>
        </div>
        {tested && <TestOutcome result={tested} />}
        <div className="form-actions">
          {smtp && (
            <Button
              write
              busy={busy === 'test'}
              title="Sends a message to your From address through the saved settings"
              onClick={sendTest}
            >
              Send a test e-mail
            </Button>
          )}
          {smtp && (
            <Button
              variant="ghost"
              write
              busy={busy === 'off'}
              onClick={() => save({ smtp: null }, 'off', 'E-mail sending turned off')}
            >
              Turn off e-mail
            </Button>
          )}
          <Button type="submit" variant="primary" write busy={busy === 'save'}>
            Save e-mail settings
          </Button>
        </div>
      </form>
    </Card>
  );
}

/** What the mail server said to the test, in its own words: the way to tell a typo from a refusal. */
function TestOutcome({ result }: { result: SmtpTestResult }) {
  const heading = result.delivered
    ? `Test e-mail sent to ${result.to}.`
    : `The test e-mail to ${result.to} did not go out.`;
  const said = result.delivered
    ? 'The mail server answered:'
    : result.response_code === null
      ? 'The mail server could not be reached:'
      : 'The mail server refused it:';
  return (
    <div role="status" data-testid="smtp-test-result">
      <Notice tone={result.delivered ? 'success' : 'warning'}>
        <strong>{heading}</strong> {said} <code>{result.response}</code>
      </Notice>
    </div>
  );
}
