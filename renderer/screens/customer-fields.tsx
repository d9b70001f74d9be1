import type { FieldChange } from '../lib/use-draft';
import { Field, fieldError, Input } from '../ui';

/**
 * The request fields naming a form's customer: the id of one picked from the list, else the e-mail
 * typed, with the name only when one was typed (it names a new customer).
 */
export function customerReference(draft: {
  customer_id: string;
  customer_email: string;
  customer_name: string;
}) {
  if (draft.customer_id) return { customer_id: draft.customer_id };
  return {
    customer_email: draft.customer_email.trim(),
    ...(draft.customer_name.trim() && { customer_name: draft.customer_name.trim() }),
  };
}

export interface ContactDraft {
  name: string;
  email: string;
  phone: string;
  address: string;
}

export const CONTACT_PARAMS = ['name', 'email', 'phone', 'address'];

/** A customer's own details, for adding one and for editing one. */
export function CustomerContactFields({
  draft,
  set,
  error,
  required,
  emailHint,
  optionalHint,
}: {
  draft: ContactDraft;
  set(field: keyof ContactDraft): FieldChange;
  error: unknown;
  /** Adding needs a name (and one way to reach them); editing sends only what changed. */
  required?: boolean;
  emailHint?: string;
  /** What leaving phone or address empty means here. */
  optionalHint: string;
}) {
  return (
    <>
      <Field label="Name" error={fieldError(error, 'name')}>
        <Input value={draft.name} onChange={set('name')} required={required} autoFocus autoComplete="off" />
      </Field>
      <Field label="E-mail" hint={emailHint} error={fieldError(error, 'email')}>
        <Input type="email" value={draft.email} onChange={set('email')} autoComplete="off" />
      </Field>
      <Field label="Phone" hint={optionalHint} error={fieldError(error, 'phone')}>
        <Input type="tel" value={draft.phone} onChange={set('phone')} />
      </Field>
      <Field label="Address" hint={optionalHint} error={fieldError(error, 'address')}>
        <Input value={draft.address} onChange={set('address')} />
      </Field>
    </>
  );
}
