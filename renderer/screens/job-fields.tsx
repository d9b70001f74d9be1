import { useState } from 'react';
import { portal } from '../lib/api';
import type { FieldChange } from '../lib/use-draft';
import { useResource } from '../lib/use-resource';
import { Button, Field, fieldError, Input, Textarea } from '../ui';

/** Team member names typed as "Sam, Alex". */
export function parseNames(text: string): string[] {
  return text
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
}

/**
 * Who does the work, picked from the team (a typo once made a phantom member). Someone new is
 * added on purpose with "Add", and joins the team when the form is saved. The value stays the
 * names as "Sam, Alex".
 */
export function TeamPicker({
  value,
  onChange,
  error,
}: {
  value: string;
  onChange(value: string): void;
  error: unknown;
}) {
  const team = useResource(() => portal.get('/team'), 'team-members');
  const [newName, setNewName] = useState('');
  const chosen = parseNames(value);
  const same = (a: string, b: string) => a.toLowerCase() === b.toLowerCase();
  const has = (name: string) => chosen.some((c) => same(c, name));
  const active = (team.data?.data ?? []).filter((m) => m.active).map((m) => m.name);
  const newcomers = chosen.filter((c) => !active.some((name) => same(name, c)));
  const toggle = (name: string) =>
    onChange((has(name) ? chosen.filter((c) => !same(c, name)) : [...chosen, name]).join(', '));
  const add = () => {
    const name = newName.trim();
    if (name && !has(name)) onChange([...chosen, name].join(', '));
    setNewName('');
  };
  const message = fieldError(error, 'assignees');
  return (
    <fieldset className={`field span-2 team-picker${message ? ' field-invalid' : ''}`}>
      <legend className="field-label">Team</legend>
      <div className="chips">
        {[...active, ...newcomers].map((name) => (
          <button
            key={name}
            type="button"
            className="chip"
            aria-pressed={has(name)}
            onClick={() => toggle(name)}
          >
            {name}
            {newcomers.includes(name) && ' (new)'}
          </button>
        ))}
        {active.length === 0 && newcomers.length === 0 && (
          <span className="muted">Nobody on the team yet: add someone below.</span>
        )}
      </div>
      <div className="row">
        <Input
          aria-label="Someone new"
          placeholder="Someone new to the team"
          value={newName}
          onChange={(event) => setNewName(event.target.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') {
              event.preventDefault();
              add();
            }
          }}
        />
        <Button size="sm" onClick={add} disabled={!newName.trim()}>
          Add
        </Button>
      </div>
      {message && <p className="field-error">{message}</p>}
    </fieldset>
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
  setAssignees,
  startHint,
  addressHint,
  notesRows,
}: {
  draft: JobPlanDraft;
  set(field: keyof JobPlanDraft): FieldChange;
  setAssignees(names: string): void;
  error: unknown;
  startHint: string;
  addressHint?: string;
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
      <TeamPicker value={draft.assignees} onChange={setAssignees} error={error} />
      <Field label="Price" error={fieldError(error, 'price')}>
        <Input inputMode="decimal" value={draft.price} onChange={set('price')} placeholder="0.00" />
      </Field>
      <Field label="Address" hint={addressHint} error={fieldError(error, 'address')} className="span-2">
        <Input value={draft.address} onChange={set('address')} />
      </Field>
      <Field label="Notes" error={fieldError(error, 'notes')} className="span-2">
        <Textarea value={draft.notes} onChange={set('notes')} rows={notesRows} />
      </Field>
    </>
  );
}
