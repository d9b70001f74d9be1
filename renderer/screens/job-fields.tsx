import type { InputHTMLAttributes } from 'react';
import type { FieldChange } from '../lib/use-draft';
import { Field, fieldError, Input, Textarea } from '../ui';

/** Team member names typed as "Sam, Alex". */
export function parseNames(text: string): string[] {
  return text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
}

/** Who does the work, typed as names; the server adds names it does not know to the team. */
export function TeamField({ error, ...input }: InputHTMLAttributes<HTMLInputElement> & { error: unknown }) {
  return (
    <Field
      label="Team"
      hint="Names, separated by commas; new names join the team"
      error={fieldError(error, 'assignees')}
    >
      <Input placeholder="Sam, Alex" {...input} />
    </Field>
  );
}

/** Start and end as local date-times in the business's time zone. */
export function ScheduleFields({
  start,
  end,
  set,
  error,
  startHint,
  params,
}: {
  start: string;
  end: string;
  set(field: 'start' | 'end'): FieldChange;
  error: unknown;
  startHint: string;
  /** The request fields the two times go to, so the server's `param` marks the right control. */
  params: [start: string, end: string];
}) {
  return (
    <>
      <Field label="Starts" hint={startHint} error={fieldError(error, params[0])}>
        <Input type="datetime-local" value={start} onChange={set('start')} />
      </Field>
      <Field label="Ends" error={fieldError(error, params[1])}>
        <Input type="datetime-local" value={end} onChange={set('end')} />
      </Field>
    </>
  );
}

export interface JobPlanDraft {
  start: string;
  end: string;
  assignees: string;
  address: string;
  price: string;
  notes: string;
}

/** When, who, where and for how much: the part of a job that creating and editing share. */
export function JobPlanFields({
  draft,
  set,
  error,
  startHint,
  notesRows,
}: {
  draft: JobPlanDraft;
  set(field: keyof JobPlanDraft): FieldChange;
  error: unknown;
  startHint: string;
  notesRows: number;
}) {
  return (
    <>
      <ScheduleFields
        start={draft.start}
        end={draft.end}
        set={set}
        error={error}
        startHint={startHint}
        params={['scheduled_start', 'scheduled_end']}
      />
      <TeamField value={draft.assignees} onChange={set('assignees')} error={error} />
      <Field label="Price" error={fieldError(error, 'price')}>
        <Input inputMode="decimal" value={draft.price} onChange={set('price')} placeholder="0.00" />
      </Field>
      <Field label="Address" error={fieldError(error, 'address')} className="span-2">
        <Input value={draft.address} onChange={set('address')} />
      </Field>
      <Field label="Notes" error={fieldError(error, 'notes')} className="span-2">
        <Textarea value={draft.notes} onChange={set('notes')} rows={notesRows} />
      </Field>
    </>
  );
}
