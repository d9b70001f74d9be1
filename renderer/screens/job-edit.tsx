import { useCallback, useEffect } from 'react';
import type { Job, JobUpdate } from '../../shared/schemas/job';
import { portal } from '../lib/api';
import { isoToZonedLocal, zonedLocalToIso } from '../lib/format';
import { useSession } from '../lib/session';
import { useDraft } from '../lib/use-draft';
import { useSubmit } from '../lib/use-submit';
import { Dialog, Field, FormActions, FormAlert, fieldError, Input } from '../ui';
import { type JobPlanDraft, JobPlanFields, parseNames } from './job-fields';
import { NO_PLACE, PlacePicker, workPlaceFields } from './place-picker';

interface Draft extends JobPlanDraft {
  title: string;
  place: string;
}

function toDraft(job: Job, timeZone: string): Draft {
  return {
    title: job.title,
    place: job.property_id ?? NO_PLACE,
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
    ...workPlaceFields(draft.place, draft.address, true),
    price: price === '' ? null : Number(price),
    notes: draft.notes.trim() || null,
  };
}

const PARAMS = [
  'title',
  'scheduled_start',
  'scheduled_end',
  'assignees',
  'property_id',
  'address',
  'price',
  'notes',
];

/** Reschedule, reassign or retitle an open job. */
export function JobEditDialog({
  open,
  job,
  onClose,
  onSaved,
}: {
  open: boolean;
  job: Job;
  onClose(): void;
  onSaved(job: Job): void;
}) {
  const { session } = useSession();
  const { draft, setDraft, set } = useDraft(() => toDraft(job, session.timezone));
  const { busy, error, setError, run } = useSubmit();
  const setPlace = useCallback((place: string) => setDraft((d) => ({ ...d, place })), [setDraft]);

  useEffect(() => {
    if (open) {
      setDraft(toDraft(job, session.timezone));
      setError(undefined);
    }
  }, [open, job, session.timezone, setDraft, setError]);

  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () =>
      onSaved(
        await portal.patch('/jobs/{number}', {
          params: { path: { number: job.id } },
          body: toUpdate(draft, session.timezone),
        }),
      ),
    );
  };

  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${job.job_number}`} wide>
      <form onSubmit={submit} noValidate className="stack" aria-label="Edit job">
        <FormAlert error={error} params={PARAMS} />
        <div className="form-grid">
          <Field label="Title" error={fieldError(error, 'title')} className="span-2">
            <Input value={draft.title} onChange={set('title')} autoFocus />
          </Field>
          <PlacePicker customerId={job.customer.id} value={draft.place} onChange={setPlace} error={error} />
          <JobPlanFields
            draft={draft}
            set={set}
            setAssignees={(assignees) => setDraft((d) => ({ ...d, assignees }))}
            error={error}
            startHint={`${session.timezone}; empty leaves it unscheduled`}
            notesRows={3}
          />
        </div>
        <FormActions onCancel={onClose} submitLabel="Save changes" busy={busy} />
      </form>
    </Dialog>
  );
}
