import { useState } from 'react';
import type { Customer } from '../../shared/schemas/customer';
import { portal } from '../lib/api';
import { useFormat, useSession } from '../lib/session';
import { useSubmit } from '../lib/use-submit';
import {
  Button,
  Card,
  Dialog,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  formError,
  Input,
  Textarea,
  useToast,
} from '../ui';
import { useBusyAction } from './use-busy-action';

interface CardProps {
  customer: Customer;
  onChange(customer: Customer): void;
}

export function TagsCard({ customer, onChange }: CardProps) {
  const { canWrite } = useSession();
  const toast = useToast();
  const [tag, setTag] = useState('');
  const { busy, error, run } = useSubmit();
  const removal = useBusyAction<string>();
  const email = customer.id;
  const add = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!tag.trim()) return;
    await run(async () => {
      onChange(
        await portal.post('/customers/{email}/tags', {
          params: { path: { email } },
          body: { tags: [tag.trim()] },
        }),
      );
      setTag('');
    });
  };
  const remove = (name: string) =>
    removal.perform(name, async () => {
      onChange(
        await portal.delete('/customers/{email}/tags/{tag}', { params: { path: { email, tag: name } } }),
      );
      toast.show(`Tag “${name}” removed`);
    });
  // The server names the first tag it refused (tags[0]); this form sends one tag at a time.
  const tagError = fieldError(error, 'tags[0]') ?? formError(error, ['tags[0]']);
  return (
    <Card title="Tags">
      <ul className="tag-list" aria-label="Tags">
        {customer.tags.length === 0 && <li className="muted">No tags.</li>}
        {customer.tags.map((t) => (
          <li className="tag" key={t}>
            {t}
            {canWrite && (
              <button
                type="button"
                aria-label={`Remove tag ${t}`}
                disabled={removal.busy === t}
                onClick={() => remove(t)}
              >
                ×
              </button>
            )}
          </li>
        ))}
      </ul>
      <form className="row inline-form" onSubmit={add}>
        <Field label="Add a tag" error={tagError} className="grow">
          <Input
            value={tag}
            onChange={(e) => setTag(e.target.value)}
            placeholder="e.g. vip"
            disabled={!canWrite}
          />
        </Field>
        <Button type="submit" write busy={busy} disabled={!tag.trim()}>
          Add
        </Button>
      </form>
    </Card>
  );
}

export function NotesCard({ customer, onChange }: CardProps) {
  const format = useFormat();
  const [text, setText] = useState('');
  const { busy, error, run } = useSubmit();
  const { canWrite } = useSession();
  const add = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      onChange(
        await portal.post('/customers/{email}/notes', {
          params: { path: { email: customer.id } },
          body: { text },
        }),
      );
      setText('');
    });
  };
  return (
    <Card title="Notes">
      <form className="stack" onSubmit={add}>
        <Field label="New note" error={fieldError(error, 'text') ?? formError(error, ['text'])}>
          <Textarea value={text} onChange={(e) => setText(e.target.value)} disabled={!canWrite} rows={3} />
        </Field>
        <div className="form-actions">
          <Button type="submit" busy={busy} write disabled={!text.trim()}>
            Add note
          </Button>
        </div>
      </form>
      <ul className="plain-list">
        {customer.notes.map((note) => (
          <li key={note.id} className="note">
            <p>{note.text}</p>
            <span className="cell-sub">{format.dateTime(note.created_at)}</span>
          </li>
        ))}
      </ul>
    </Card>
  );
}

export function WinbackCard({ customer, onSent }: { customer: Customer; onSent(): void }) {
  const toast = useToast();
  const [open, setOpen] = useState(false);
  const [offer, setOffer] = useState('');
  const { busy, error, setError, run } = useSubmit();
  const close = () => {
    setOpen(false);
    setError(undefined);
  };
  const send = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const result = await portal.post('/customers/{email}/winback', {
        params: { path: { email: customer.id } },
        body: offer.trim() ? { offer: offer.trim() } : {},
      });
      toast.show(`Win-back e-mail queued for ${result.message.to}`);
      setOffer('');
      close();
      onSent();
    });
  };
  return (
    <Card title="Win back">
      <p className="muted">
        {!customer.email
          ? `${customer.name} has no e-mail address, so a win-back cannot be e-mailed: call them or send a text${customer.phone ? ` (${customer.phone})` : ''}.`
          : customer.lapsed
            ? `${customer.name} has not booked in a while. Send a friendly note with an offer.`
            : 'Available once a customer has gone quiet (Settings › Business: win-back period).'}
      </p>
      <Button write disabled={!customer.lapsed || !customer.email} onClick={() => setOpen(true)}>
        Send win-back e-mail
      </Button>
      <Dialog open={open} onClose={close} title={`Win back ${customer.name}`}>
        <form className="stack" onSubmit={send} noValidate>
          <FormAlert error={error} params={['offer']} />
          <p className="muted">The message uses your win-back template (Settings › Business).</p>
          <Field
            label="Offer"
            hint="Optional, e.g. 15 % off your next clean"
            error={fieldError(error, 'offer')}
          >
            <Input value={offer} onChange={(e) => setOffer(e.target.value)} autoFocus />
          </Field>
          <FormActions onCancel={close} submitLabel="Queue e-mail" busy={busy} />
        </form>
      </Dialog>
    </Card>
  );
}
