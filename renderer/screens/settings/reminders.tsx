import { useState } from 'react';
import {
  fillReminder,
  PREVIEW_VALUES,
  REMINDER_PLACEHOLDERS,
  type ReminderKind,
} from '../../../shared/reminder-templates';
import type { ReminderSettings as Settings } from '../../../shared/schemas/reminders';
import { portal } from '../../lib/api';
import { useSession } from '../../lib/session';
import { useResource } from '../../lib/use-resource';
import { useSubmit } from '../../lib/use-submit';
import {
  Button,
  Card,
  Checkbox,
  Field,
  FormAlert,
  fieldError,
  Input,
  Select,
  Textarea,
  useToast,
} from '../../ui';
import { Loaded } from '../common';

export function ReminderSettings() {
  const settings = useResource(() => portal.get('/reminders/settings'), 'reminder-settings');
  return <Loaded resource={settings}>{(s) => <ReminderForm settings={s} onSaved={settings.set} />}</Loaded>;
}

const TITLES: Record<ReminderKind, { title: string; about: string }> = {
  invoice_overdue: {
    title: 'Overdue invoices',
    about: 'A reminder on each of these days after the due date, until the invoice is paid.',
  },
  appointment: {
    title: 'Visits',
    about: 'The day before a scheduled visit. A cancelled or moved visit’s reminder is not sent.',
  },
  quote_follow_up: {
    title: 'Quote follow-up',
    about: 'Once, this many days after a quote is sent, while it is still open.',
  },
};

const HOURS = Array.from({ length: 24 }, (_, hour) => hour);

function ReminderForm({ settings, onSaved }: { settings: Settings; onSaved(settings: Settings): void }) {
  const { session, canWrite } = useSession();
  const toast = useToast();
  const [draft, setDraft] = useState(settings);
  const [steps, setSteps] = useState(settings.invoice_overdue.days_after_due.join(', '));
  const { busy, error, run } = useSubmit();

  const update = <K extends ReminderKind>(kind: K, patch: Partial<Settings[K]>) =>
    setDraft({ ...draft, [kind]: { ...draft[kind], ...patch } });

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const days = steps
      .split(/[\s,]+/)
      .filter(Boolean)
      .map((day) => (/^\d+$/.test(day) ? Number(day) : Number.NaN));
    return run(async () => {
      const saved = await portal.put('/reminders/settings', {
        body: {
          ...draft,
          invoice_overdue: { ...draft.invoice_overdue, days_after_due: days },
        },
      });
      onSaved(saved);
      setDraft(saved);
      setSteps(saved.invoice_overdue.days_after_due.join(', '));
      toast.show('Reminder settings saved');
    });
  };

  const params = (['invoice_overdue', 'appointment', 'quote_follow_up'] as const).flatMap((kind) => [
    `${kind}.subject`,
    `${kind}.body`,
  ]);

  const templates = (kind: ReminderKind) => {
    const values = { ...PREVIEW_VALUES[kind], business_name: session.business_name };
    return (
      <div className="form-grid">
        <Field label="Subject" error={fieldError(error, `${kind}.subject`)} className="span-2">
          <Input
            value={draft[kind].subject}
            disabled={!canWrite}
            onChange={(e) => update(kind, { subject: e.target.value })}
          />
        </Field>
        <Field
          label="Message"
          hint={`Fills in ${REMINDER_PLACEHOLDERS[kind].map((name) => `{${name}}`).join(' ')}`}
          error={fieldError(error, `${kind}.body`)}
        >
          <Textarea
            rows={7}
            value={draft[kind].body}
            disabled={!canWrite}
            onChange={(e) => update(kind, { body: e.target.value })}
          />
        </Field>
        <section className="reminder-preview" aria-label={`${TITLES[kind].title}: preview`}>
          <p className="muted">Preview</p>
          <p>
            <strong>{fillReminder(draft[kind].subject, values)}</strong>
          </p>
          <p className="preview-body">{fillReminder(draft[kind].body, values)}</p>
        </section>
      </div>
    );
  };

  return (
    <form className="stack" onSubmit={submit} noValidate>
      <FormAlert
        error={error}
        params={['send_hour', 'invoice_overdue.days_after_due', 'quote_follow_up.days_after_sent', ...params]}
      />
      <Card title="Automatic reminders">
        <p className="muted">
          Reminders go through your e-mail outbox: while Shopdesk is offline they wait, and each one is
          checked again as it leaves, so none goes for an invoice paid or a visit cancelled meanwhile.
        </p>
        <div className="form-grid">
          <Field label="Send at" hint="In your business’s time zone" error={fieldError(error, 'send_hour')}>
            <Select
              value={String(draft.send_hour)}
              disabled={!canWrite}
              onChange={(e) => setDraft({ ...draft, send_hour: Number(e.target.value) })}
            >
              {HOURS.map((hour) => (
                <option key={hour} value={hour}>
                  {`${String(hour).padStart(2, '0')}:00`}
                </option>
              ))}
            </Select>
          </Field>
        </div>
      </Card>
      <Card title={TITLES.invoice_overdue.title}>
        <div className="stack">
          <p className="muted">{TITLES.invoice_overdue.about}</p>
          <Checkbox
            label="Send overdue invoice reminders"
            checked={draft.invoice_overdue.enabled}
            disabled={!canWrite}
            onChange={(e) => update('invoice_overdue', { enabled: e.target.checked })}
          />
          <Field
            label="Days after the due date"
            hint="e.g. 3, 7, 14"
            error={fieldError(error, 'invoice_overdue.days_after_due')}
          >
            <Input value={steps} disabled={!canWrite} onChange={(e) => setSteps(e.target.value)} />
          </Field>
          {templates('invoice_overdue')}
        </div>
      </Card>
      <Card title={TITLES.appointment.title}>
        <div className="stack">
          <p className="muted">{TITLES.appointment.about}</p>
          <Checkbox
            label="Remind customers the day before their visit"
            checked={draft.appointment.enabled}
            disabled={!canWrite}
            onChange={(e) => update('appointment', { enabled: e.target.checked })}
          />
          {templates('appointment')}
        </div>
      </Card>
      <Card title={TITLES.quote_follow_up.title}>
        <div className="stack">
          <p className="muted">{TITLES.quote_follow_up.about}</p>
          <Checkbox
            label="Follow up on open quotes"
            checked={draft.quote_follow_up.enabled}
            disabled={!canWrite}
            onChange={(e) => update('quote_follow_up', { enabled: e.target.checked })}
          />
          <Field label="Days after sending" error={fieldError(error, 'quote_follow_up.days_after_sent')}>
            <Input
              type="number"
              value={String(draft.quote_follow_up.days_after_sent)}
              disabled={!canWrite}
              onChange={(e) => update('quote_follow_up', { days_after_sent: Number(e.target.value) })}
            />
          </Field>
          {templates('quote_follow_up')}
        </div>
      </Card>
      <div className="form-actions">
        <Button type="submit" variant="primary" busy={busy} write>
          Save reminders
        </Button>
      </div>
    </form>
  );
}
