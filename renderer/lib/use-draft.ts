import { type ChangeEvent, useState } from 'react';

/** What `set(field)` returns: one handler fits a form's inputs and its text areas. */
export type FieldChange = (event: ChangeEvent<HTMLInputElement | HTMLTextAreaElement>) => void;

type TextKeys<T> = { [K in keyof T]: T[K] extends string ? K : never }[keyof T];

/** A form's values as typed, with `set(field)` giving the change handler for that field's control. */
export function useDraft<T extends object>(initial: T | (() => T)) {
  const [draft, setDraft] = useState<T>(initial);
  const set =
    (field: TextKeys<T>): FieldChange =>
    (event) =>
      setDraft({ ...draft, [field]: event.target.value });
  return { draft, setDraft, set };
}
