import { useState } from 'react';
import { placeLine } from '../../shared/place';
import type { BookingRequest } from '../../shared/schemas/booking-request';
import { portal, portalUrl } from '../lib/api';
import { zonedLocalToIso } from '../lib/format';
import { href, navigate } from '../lib/router';
import { useFormat, useSession } from '../lib/session';
import { usePagedList } from '../lib/use-resource';
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
  Input,
  Textarea,
  useToast,
} from '../ui';
import { parseNames, TeamPicker } from './job-fields';
import { useBusyAction } from './use-busy-action';
import '../styles/booking-requests.css';

type Answer = 'confirm' | 'convert-to-job' | 'convert-to-quote';

const DONE: Record<Answer, string> = {
  confirm: 'Request confirmed',
  'convert-to-job': 'Job scheduled',
  'convert-to-quote': 'Draft quote made',
};

const ORIGIN: Record<BookingRequest['origin'], string> = {
  client_hub: 'Client hub',
  booking_page: 'Booking page',
};

/** The requests customers sent that wait for the owner's answer, at the top of Bookings. */
export function BookingRequests({ onAnswered }: { onAnswered(): void }) {
  const toast = useToast();
  const list = usePagedList(
    (cursor) => portal.get('/booking-requests', { params: { query: { status: 'open', cursor, limit: 50 } } }),
    'booking-requests:open',
  );
  const { busy, perform } = useBusyAction<string>();
  const [scheduling, setScheduling] = useState<BookingRequest>();
  const [declining, setDeclining] = useState<BookingRequest>();

  const answered = (message: string) => {
    toast.show(message);
    list.reload();
    onAnswered();
  };
  const answer = (request: BookingRequest, action: Answer) =>
    perform(`${request.id}:${action}`, async () => {
      const done = await portal.post(`/booking-requests/{id}/${action}` as const, {
        params: { path: { id: request.id } },
      });
      answered(`${DONE[action]}: ${done.booking.service}`);
      if (action === 'convert-to-quote' && done.quote_id) navigate(href('quotes', done.quote_id));
    });

  if (list.items.length === 0) return null;
  return (
    <Card
      title={`Requests waiting (${list.items.length}${list.hasMore ? '+' : ''})`}
      className="booking-requests"
    >
      <ul className="request-list">
        {list.items.map((r) => (
          <RequestItem
            key={r.id}
            request={r}
            busy={busy}
            onAnswer={answer}
            onSchedule={() => setScheduling(r)}
            onDecline={() => setDeclining(r)}
          />
        ))}
      </ul>
      <ScheduleDialog
        request={scheduling}
        onClose={() => setScheduling(undefined)}
        onDone={(message) => {
          setScheduling(undefined);
          answered(message);
        }}
      />
      <DeclineDialog
        request={declining}
        onClose={() => setDeclining(undefined)}
        onDone={(message) => {
          setDeclining(undefined);
          answered(message);
        }}
      />
    </Card>
  );
}

function RequestItem({
  request: r,
  busy,
  onAnswer,
  onSchedule,
  onDecline,
}: {
  request: BookingRequest;
  busy: string | undefined;
  onAnswer(request: BookingRequest, action: Answer): void;
  onSchedule(): void;
  onDecline(): void;
}) {
  const format = useFormat();
  const who = `${r.booking.service}, ${r.booking.customer.name}`;
  return (
    <li className="request-item" aria-label={`Request: ${who}`}>
      <div className="request-head">
        <strong>{r.booking.service}</strong>
        <Badge tone="accent">{ORIGIN[r.origin]}</Badge>
      </div>
      <p className="request-who">
        <a href={href('customers', r.booking.customer.id)}>{r.booking.customer.name}</a>
        {r.contact && (
          <span className="muted">
            {' '}
            · typed: {r.contact.name}, {r.contact.email}
            {r.contact.phone && `, ${r.contact.phone}`}
          </span>
        )}
      </p>
      <p className="muted">
        Would like {format.dateTime(r.booking.start)} – {format.time(r.booking.end)}
        {r.preferred.length > 1 &&
          ` (or ${r.preferred
            .slice(1)
            .map((p) => `${format.date(p.date)} ${p.time}`)
            .join(', ')})`}
      </p>
      {r.property && <p>{placeLine(r.property)}</p>}
      {r.booking.notes && <p className="request-notes">{r.booking.notes}</p>}
      {r.photos.length > 0 && (
        <div className="request-photos">
          {r.photos.map((photo, i) => {
            const url = portalUrl(`/booking-requests/${encodeURIComponent(r.id)}/photos/${photo.id}`);
            return (
              <a key={photo.id} href={url} target="_blank" rel="noreferrer">
                <img src={url} alt={`Sent with ${who} (${i + 1} of ${r.photos.length})`} />
              </a>
            );
          })}
        </div>
      )}
      <div className="row request-actions">
        <Button size="sm" variant="ghost" write onClick={onDecline} aria-label={`Decline: ${who}`}>
          Decline
        </Button>
        <Button
          size="sm"
          variant="secondary"
          write
          busy={busy === `${r.id}:convert-to-quote`}
          onClick={() => onAnswer(r, 'convert-to-quote')}
          aria-label={`Make a quote: ${who}`}
        >
          Make a quote
        </Button>
        <Button
          size="sm"
          variant="secondary"
          write
          busy={busy === `${r.id}:confirm`}
          onClick={() => onAnswer(r, 'confirm')}
          aria-label={`Confirm: ${who}`}
        >
          Confirm
        </Button>
        <Button size="sm" variant="primary" write onClick={onSchedule} aria-label={`Schedule a job: ${who}`}>
          Schedule job
        </Button>
      </div>
    </li>
  );
}

/** Turning a request into a job: at the customer's first choice unless the owner picks another time. */
function ScheduleDialog({
  request,
  onClose,
  onDone,
}: {
  request: BookingRequest | undefined;
  onClose(): void;
  onDone(message: string): void;
}) {
  const { session } = useSession();
  const [assignees, setAssignees] = useState('');
  const [start, setStart] = useState('');
  const [end, setEnd] = useState('');
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!request) return;
    return run(async () => {
      const other = start || end;
      await portal.post('/booking-requests/{id}/convert-to-job', {
        params: { path: { id: request.id } },
        body: {
          assignees: parseNames(assignees),
          ...(other && {
            start: start ? zonedLocalToIso(start, session.timezone) : '',
            end: end ? zonedLocalToIso(end, session.timezone) : '',
          }),
        },
      });
      setAssignees('');
      setStart('');
      setEnd('');
      onDone(`Job scheduled: ${request.booking.service}`);
    });
  };

  return (
    <Dialog open={Boolean(request)} onClose={onClose} title="Schedule a job">
      {request && (
        <form onSubmit={submit} noValidate className="stack" aria-label="Schedule a job">
          <FormAlert error={error} params={['assignees', 'start', 'end']} />
          <p>
            <strong>{request.booking.service}</strong> for {request.booking.customer.name}
          </p>
          <TeamPicker value={assignees} onChange={setAssignees} error={error} />
          <p className="muted">Leave the times empty to keep the customer’s first choice.</p>
          <div className="form-grid">
            <Field label="Another start" hint={session.timezone} error={fieldError(error, 'start')}>
              <Input type="datetime-local" value={start} onChange={(e) => setStart(e.target.value)} />
            </Field>
            <Field label="Another end" error={fieldError(error, 'end')}>
              <Input type="datetime-local" value={end} onChange={(e) => setEnd(e.target.value)} />
            </Field>
          </div>
          <FormActions onCancel={onClose} cancelLabel="Not now" submitLabel="Schedule job" busy={busy} />
        </form>
      )}
    </Dialog>
  );
}

function DeclineDialog({
  request,
  onClose,
  onDone,
}: {
  request: BookingRequest | undefined;
  onClose(): void;
  onDone(message: string): void;
}) {
  const [message, setMessage] = useState('');
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    if (!request) return;
    return run(async () => {
      await portal.post('/booking-requests/{id}/decline', {
        params: { path: { id: request.id } },
        body: { message },
      });
      setMessage('');
      onDone(`Request declined: ${request.booking.service}`);
    });
  };

  return (
    <Dialog open={Boolean(request)} onClose={onClose} title="Decline the request">
      {request && (
        <form onSubmit={submit} noValidate className="stack" aria-label="Decline the request">
          <FormAlert error={error} params={['message']} />
          <Field
            label={`Message to ${request.booking.customer.name}`}
            hint={
              request.booking.customer.email
                ? 'E-mailed to them'
                : 'They have no e-mail: kept with the request'
            }
            error={fieldError(error, 'message')}
          >
            <Textarea rows={4} value={message} onChange={(e) => setMessage(e.target.value)} autoFocus />
          </Field>
          <FormActions onCancel={onClose} cancelLabel="Keep it" submitLabel="Decline" busy={busy} />
        </form>
      )}
    </Dialog>
  );
}
