import { useState } from 'react';
import type { ClientAction } from '../../shared/schemas/client-hub';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  Dialog,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Textarea,
  useToast,
} from '../ui';
import { useBusyAction } from './use-busy-action';
import '../styles/customers-waiting.css';

const KIND: Record<ClientAction['kind'], string> = {
  'quote.approve': 'Approved a quote',
  'quote.decline': 'Declined a quote',
  'quote.changes': 'Asked for changes to a quote',
  'invoice.payment_notice': 'Says they sent a payment',
  'visit.reschedule': 'Asked to move a visit',
  'link.renew': 'Asked for a new link',
  'review.submit': 'Left a review',
  'booking.request': 'Asked for work',
  'booking.page': 'Booked from your page',
};

/** The payload's fields as the owner reads them; a field the form left empty says nothing. */
const WROTE: Array<[key: string, label: string]> = [
  ['name', 'Signed as'],
  ['message', 'Wrote'],
  ['reason', 'Reason'],
  ['note', 'Wrote'],
  ['preferred', 'Times that suit'],
  ['contact', 'Contact given'],
];

function wrote(action: ClientAction): string[] {
  return WROTE.flatMap(([key, label]) => {
    const value = action.payload[key];
    return typeof value === 'string' && value.trim() ? [`${label}: ${value}`] : [];
  });
}

/** On the dashboard: what customers did through the client hub that waits for the owner. */
export function CustomersWaiting() {
  const toast = useToast();
  const inbox = useResource(() => portal.get('/client-actions'), 'client-actions');
  const { busy, perform } = useBusyAction<string>();
  const [replying, setReplying] = useState<ClientAction>();
  const waiting = inbox.data?.waiting ?? [];

  const done = (action: ClientAction) =>
    perform(action.id, async () => {
      await portal.post('/client-actions/{id}/resolve', { params: { path: { id: action.id } }, body: {} });
      toast.show('Marked done');
      inbox.reload();
    });

  if (waiting.length === 0) return null;
  return (
    <Card title={`Customers waiting (${waiting.length})`} className="customers-waiting">
      <ul className="waiting-list">
        {waiting.map((action) => (
          <WaitingItem
            key={action.id}
            action={action}
            busy={busy === action.id}
            onDone={() => done(action)}
            onReply={() => setReplying(action)}
          />
        ))}
      </ul>
      <ReplyDialog
        action={replying}
        onClose={() => setReplying(undefined)}
        onSent={() => {
          setReplying(undefined);
          toast.show('Reply sent');
          inbox.reload();
        }}
      />
    </Card>
  );
}

function WaitingItem({
  action,
  busy,
  onDone,
  onReply,
}: {
  action: ClientAction;
  busy: boolean;
  onDone(): void;
  onReply(): void;
}) {
  const format = useFormat();
  const who = action.customer_name ?? 'A customer';
  const what = `${KIND[action.kind]}, ${who}`;
  return (
    <li className="waiting-item" aria-label={what}>
      <div className="waiting-head">
        <strong>{KIND[action.kind]}</strong>
        {action.status === 'refused' && <Badge tone="warning">Could not be done</Badge>}
        <span className="muted">{format.relative(action.created_at)}</span>
      </div>
      <p>
        <a href={href('customers', action.customer_id)}>{who}</a>{' '}
        <span className="muted">· {format.dateTime(action.created_at)}</span>
      </p>
      {wrote(action).map((line) => (
        <p key={line} className="waiting-wrote">
          {line}
        </p>
      ))}
      {action.outcome && <p className="muted">{action.outcome}</p>}
      <div className="row waiting-actions">
        <Button size="sm" variant="secondary" write onClick={onReply} aria-label={`Reply: ${what}`}>
          Reply…
        </Button>
        <Button size="sm" variant="primary" write busy={busy} onClick={onDone} aria-label={`Done: ${what}`}>
          Done
        </Button>
      </div>
    </li>
  );
}

function ReplyDialog({
  action,
  onClose,
  onSent,
}: {
  action: ClientAction | undefined;
  onClose(): void;
  onSent(): void;
}) {
  const [reply, setReply] = useState('');
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!action) return;
    return run(async () => {
      await portal.post('/client-actions/{id}/resolve', {
        params: { path: { id: action.id } },
        body: { reply },
      });
      setReply('');
      onSent();
    });
  };

  return (
    <Dialog open={Boolean(action)} onClose={onClose} title="Reply to the customer">
      {action && (
        <form onSubmit={submit} noValidate className="stack" aria-label="Reply to the customer">
          <FormAlert error={error} params={['reply']} />
          <p>
            <strong>{KIND[action.kind]}</strong> · {action.customer_name ?? 'A customer'}
          </p>
          <Field
            label="Your reply"
            hint="E-mailed to them; the request is then marked done"
            error={fieldError(error, 'reply')}
          >
            <Textarea rows={4} value={reply} onChange={(e) => setReply(e.target.value)} />
          </Field>
          <FormActions onCancel={onClose} cancelLabel="Not now" submitLabel="Send reply" busy={busy} />
        </form>
      )}
    </Dialog>
  );
}
