import { useEffect, useState } from 'react';
import type { Booking } from '../../shared/schemas/booking';
import { api } from '../lib/api';
import { zonedLocalToIso } from '../lib/format';
import { useFormat, useSession } from '../lib/session';
import { Button, Checkbox, Dialog, Field, fieldError, formError, Input, Textarea } from '../ui';
import { parseNames } from './jobs';

interface BookingDraft {
  customer_email: string;
  customer_name: string;
  service: string;
  start: string;
  end: string;
  notes: string;
  source: string;
}

const EMPTY: BookingDraft = {
  customer_email: '',
  customer_name: '',
  service: '',
  start: '',
  end: '',
  notes: '',
  source: 'phone',
};

const BOOKING_PARAMS = ['customer_email', 'customer_name', 'service', 'start', 'end', 'notes', 'source'];

/** A booking taken by hand (a phone call, a walk-in): it starts pending, like one from the website. */
export function NewBookingDialog({
  open,
  onClose,
  onCreated,
}: {
  open: boolean;
  onClose(): void;
  onCreated(booking: Booking): void;
}) {
  const { session } = useSession();
  const [draft, setDraft] = useState<BookingDraft>(EMPTY);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();
  const set = (field: keyof BookingDraft) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setDraft({ ...draft, [field]: e.target.value });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      const booking = await api.post<Booking>('/bookings', {
        customer_email: draft.customer_email.trim(),
        ...(draft.customer_name.trim() && { customer_name: draft.customer_name.trim() }),
        service: draft.service,
        // Empty times go as empty strings so the server names the missing field.
        start: draft.start ? zonedLocalToIso(draft.start, session.timezone) : '',
        end: draft.end ? zonedLocalToIso(draft.end, session.timezone) : '',
        ...(draft.notes.trim() && { notes: draft.notes.trim() }),
        ...(draft.source.trim() && { source: draft.source.trim() }),
      });
      setDraft(EMPTY);
      onCreated(booking);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const general = formError(error, BOOKING_PARAMS);
  return (
    <Dialog open={open} onClose={onClose} title="New booking" wide>
      <form onSubmit={submit} noValidate className="stack" aria-label="New booking">
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <div className="form-grid">
          <Field label="Customer e-mail" error={fieldError(error, 'customer_email')}>
            <Input type="email" value={draft.customer_email} onChange={set('customer_email')} autoFocus />
          </Field>
          <Field label="Customer name" hint="For a new customer" error={fieldError(error, 'customer_name')}>
            <Input value={draft.customer_name} onChange={set('customer_name')} />
          </Field>
          <Field label="Service" error={fieldError(error, 'service')} className="span-2">
            <Input
              value={draft.service}
              onChange={set('service')}
              placeholder="e.g. Deep clean, 2 bedrooms"
            />
          </Field>
          <Field label="Starts" hint={session.timezone} error={fieldError(error, 'start')}>
            <Input type="datetime-local" value={draft.start} onChange={set('start')} />
          </Field>
          <Field label="Ends" error={fieldError(error, 'end')}>
            <Input type="datetime-local" value={draft.end} onChange={set('end')} />
          </Field>
          <Field
            label="Source"
            hint="Where it came from: phone, walk-in, …"
            error={fieldError(error, 'source')}
          >
            <Input value={draft.source} onChange={set('source')} />
          </Field>
          <Field label="Notes" error={fieldError(error, 'notes')} className="span-2">
            <Textarea value={draft.notes} onChange={set('notes')} rows={2} />
          </Field>
        </div>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write>
            Add booking
          </Button>
        </div>
      </form>
    </Dialog>
  );
}

/** Confirming a booking, by default with a job on the calendar for the team named here. */
export function ConfirmBookingDialog({
  booking,
  onClose,
  onConfirmed,
}: {
  booking: Booking | undefined;
  onClose(): void;
  onConfirmed(booking: Booking): void;
}) {
  const format = useFormat();
  const [createJob, setCreateJob] = useState(true);
  const [assignees, setAssignees] = useState('');
  const [address, setAddress] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    if (booking) {
      setCreateJob(true);
      setAssignees('');
      setAddress('');
      setError(undefined);
    }
  }, [booking]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!booking) return;
    setBusy(true);
    setError(undefined);
    try {
      const confirmed = await api.post<Booking>(`/bookings/${encodeURIComponent(booking.id)}/confirm`, {
        create_job: createJob,
        ...(createJob && { assignees: parseNames(assignees) }),
        ...(createJob && address.trim() && { address: address.trim() }),
      });
      onConfirmed(confirmed);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const general = formError(error, ['assignees', 'address']);
  return (
    <Dialog open={Boolean(booking)} onClose={onClose} title="Confirm booking">
      {booking && (
        <form onSubmit={submit} noValidate className="stack" aria-label="Confirm booking">
          {general && (
            <div className="notice notice-error" role="alert">
              {general}
            </div>
          )}
          <p>
            <strong>{booking.service}</strong> for {booking.customer.name}
            <br />
            <span className="muted">
              {format.dateTime(booking.start)} – {format.time(booking.end)}
            </span>
          </p>
          <Checkbox
            label="Create a job on the calendar for it"
            checked={createJob}
            onChange={(e) => setCreateJob(e.target.checked)}
          />
          {createJob && (
            <>
              <Field
                label="Team"
                hint="Names, separated by commas; new names join the team"
                error={fieldError(error, 'assignees')}
              >
                <Input
                  value={assignees}
                  onChange={(e) => setAssignees(e.target.value)}
                  placeholder="Sam, Alex"
                  data-autofocus
                />
              </Field>
              <Field label="Address" hint="Optional" error={fieldError(error, 'address')}>
                <Input value={address} onChange={(e) => setAddress(e.target.value)} />
              </Field>
            </>
          )}
          <div className="form-actions">
            <Button onClick={onClose}>Not now</Button>
            <Button type="submit" variant="primary" busy={busy} write>
              Confirm booking
            </Button>
          </div>
        </form>
      )}
    </Dialog>
  );
}
