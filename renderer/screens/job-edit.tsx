import { useEffect, useState } from 'react';
import type { Job, JobUpdate } from '../../shared/schemas/job';
import { api } from '../lib/api';
import { isoToZonedLocal, zonedLocalToIso } from '../lib/format';
import { useSession } from '../lib/session';
import { Button, Dialog, Field, fieldError, formError, Input, Textarea } from '../ui';
import { parseNames } from './jobs';

interface Draft {
  title: string;
  start: string;
  end: string;
  assignees: string;
  address: string;
  price: string;
  notes: string;
}

function toDraft(job: Job, timeZone: string): Draft {
  return {
    title: job.title,
    start: job.scheduled_start ? isoToZonedLocal(job.scheduled_start, timeZone) : '',
    end: job.scheduled_end ? isoToZonedLocal(job.scheduled_end, timeZone) : '',
    assignees: job.assignees.join(', '),
    address: job.address ?? '',
    price: job.price === null ? '' : String(job.price),
    notes: job.notes ?? '',
  };
}

/** The whole editable job as a PATCH: empty start unschedules it, empty optional fields clear them. */
function toUpdate(draft: Draft, timeZone: string): JobUpdate {
  const price = draft.price.trim().replace(',', '.');
  return {
    title: draft.title,
    scheduled_start: draft.start ? zonedLocalToIso(draft.start, timeZone) : null,
    scheduled_end: draft.end ? zonedLocalToIso(draft.end, timeZone) : null,
    assignees: parseNames(draft.assignees),
    address: draft.address.trim() || null,
    price: price === '' ? null : Number(price),
    notes: draft.notes.trim() || null,
  };
}

const PARAMS = ['title', 'scheduled_start', 'scheduled_end', 'assignees', 'address', 'price', 'notes'];

/** Reschedule, reassign or retitle an open job. */
export function JobEditDialog({
  open,
  job,
  path,
  onClose,
  onSaved,
}: {
  open: boolean;
  job: Job;
  path: string;
  onClose(): void;
  onSaved(job: Job): void;
}) {
  const { session } = useSession();
  const [draft, setDraft] = useState(() => toDraft(job, session.timezone));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  useEffect(() => {
    if (open) {
      setDraft(toDraft(job, session.timezone));
      setError(undefined);
    }
  }, [open, job, session.timezone]);

  const set = (field: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) =>
    setDraft({ ...draft, [field]: e.target.value });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    try {
      onSaved(await api.patch<Job>(path, toUpdate(draft, session.timezone)));
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const general = formError(error, PARAMS);
  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${job.job_number}`} wide>
      <form onSubmit={submit} noValidate className="stack" aria-label="Edit job">
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <div className="form-grid">
          <Field label="Title" error={fieldError(error, 'title')} className="span-2">
            <Input value={draft.title} onChange={set('title')} autoFocus />
          </Field>
          <Field
            label="Starts"
            hint={`${session.timezone}; empty leaves it unscheduled`}
            error={fieldError(error, 'scheduled_start')}
          >
            <Input type="datetime-local" value={draft.start} onChange={set('start')} />
          </Field>
          <Field label="Ends" error={fieldError(error, 'scheduled_end')}>
            <Input type="datetime-local" value={draft.end} onChange={set('end')} />
          </Field>
          <Field
            label="Team"
            hint="Names, separated by commas; new names join the team"
            error={fieldError(error, 'assignees')}
          >
            <Input value={draft.assignees} onChange={set('assignees')} placeholder="Sam, Alex" />
          </Field>
          <Field label="Price" error={fieldError(error, 'price')}>
            <Input inputMode="decimal" value={draft.price} onChange={set('price')} placeholder="0.00" />
          </Field>
          <Field label="Address" error={fieldError(error, 'address')} className="span-2">
            <Input value={draft.address} onChange={set('address')} />
          </Field>
          <Field label="Notes" error={fieldError(error, 'notes')} className="span-2">
            <Textarea value={draft.notes} onChange={set('notes')} rows={3} />
          </Field>
        </div>
        <div className="form-actions">
          <Button onClick={onClose}>Cancel</Button>
          <Button type="submit" variant="primary" busy={busy} write>
            Save changes
          </Button>
        </div>
      </form>
    </Dialog>
  );
}
