import { useEffect, useState } from 'react';
import type { Booking } from '../../shared/schemas/booking';
import { portal } from '../lib/api';
import { zonedLocalToIso } from '../lib/format';
import { useFormat, useSession } from '../lib/session';
import { useDraft } from '../lib/use-draft';
import { useSubmit } from '../lib/use-submit';
import { Checkbox, Dialog, Field, FormActions, FormAlert, fieldError, Input, Textarea } from '../ui';
import { customerReference } from './customer-fields';
import { CustomerPlaceFields } from './customer-place-fields';
import { parseNames, ScheduleFields, TeamPicker } from './job-fields';
import { placeField } from './place-picker';

interface BookingDraft {
  customer_id: string;
  customer_email: string;
  customer_name: string;
  service: string;
  start: string;
  end: string;
  notes: string;
  source: string;
  place: string;
}

const EMPTY: BookingDraft = {
  customer_id: '',
  customer_email: '',
  customer_name: '',
  service: '',
  start: '',
  end: '',
  notes: '',
  source: 'phone',
  place: '',
};

const BOOKING_PARAMS = [
  'customer_email',
  'customer_name',
  'property_id',
  'service',
  'start',
  'end',
  'notes',
  'source',
];

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
  const { draft, setDraft, set } = useDraft(EMPTY);
  const { busy, error, run } = useSubmit();

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const booking = await portal.post('/bookings', {
        body: {
          ...customerReference(draft),
          ...placeField(draft.place),
          service: draft.service,
          // Empty times go as empty strings so the server names the missing field.
          start: draft.start ? zonedLocalToIso(draft.start, session.timezone) : '',
          end: draft.end ? zonedLocalToIso(draft.end, session.timezone) : '',
          ...(draft.notes.trim() && { notes: draft.notes.trim() }),
          ...(draft.source.trim() && { source: draft.source.trim() }),
        },
      });
      setDraft(EMPTY);
      onCreated(booking);
    });
  };

  return (
    <Dialog open={open} onClose={onClose} title="New booking" wide>
      <form onSubmit={submit} noValidate className="stack" aria-label="New booking">
        <FormAlert error={error} params={BOOKING_PARAMS} />
        <div className="form-grid">
          <CustomerPlaceFields draft={draft} setDraft={setDraft} error={error} />
          <Field label="Service" error={fieldError(error, 'service')} className="span-2">
            <Input
              value={draft.service}
              onChange={set('service')}
              placeholder="e.g. Deep clean, 2 bedrooms"
            />
          </Field>
          <ScheduleFields
            start={draft.start}
            end={draft.end}
            set={set}
            error={error}
            startHint={session.timezone}
            params={['start', 'end']}
          />
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
        <FormActions onCancel={onClose} submitLabel="Add booking" busy={busy} />
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
  const { busy, error, setError, run } = useSubmit();

  useEffect(() => {
    if (booking) {
      setCreateJob(true);
      setAssignees('');
      setAddress('');
      setError(undefined);
    }
  }, [booking, setError]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    if (!booking) return;
    await run(async () => {
      const confirmed = await portal.post('/bookings/{id}/confirm', {
        params: { path: { id: booking.id } },
        body: {
          create_job: createJob,
          ...(createJob && { assignees: parseNames(assignees) }),
          ...(createJob && address.trim() && { address: address.trim() }),
        },
      });
      onConfirmed(confirmed);
    });
  };

  return (
    <Dialog open={Boolean(booking)} onClose={onClose} title="Confirm booking">
      {booking && (
        <form onSubmit={submit} noValidate className="stack" aria-label="Confirm booking">
          <FormAlert error={error} params={['assignees', 'address']} />
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
              <TeamPicker value={assignees} onChange={setAssignees} error={error} />
              <Field label="Address" hint="Optional" error={fieldError(error, 'address')}>
                <Input value={address} onChange={(e) => setAddress(e.target.value)} />
              </Field>
            </>
          )}
          <FormActions onCancel={onClose} cancelLabel="Not now" submitLabel="Confirm booking" busy={busy} />
        </form>
      )}
    </Dialog>
  );
}
