import { useEffect, useState } from 'react';
import type { Customer, CustomerUpdate } from '../../shared/schemas/customer';
import { api } from '../lib/api';
import { Button, Dialog, Field, fieldError, formError, Input, useToast } from '../ui';

interface Draft {
  name: string;
  email: string;
  phone: string;
  address: string;
}

const toDraft = (c: Customer): Draft => ({
  name: c.name,
  email: c.email,
  phone: c.phone ?? '',
  address: c.address ?? '',
});

/** Only what changed goes to the server; a cleared phone or address is sent as null. */
function changes(before: Draft, after: Draft): CustomerUpdate {
  const patch: CustomerUpdate = {};
  if (after.name !== before.name) patch.name = after.name;
  if (after.email.trim() !== before.email) patch.email = after.email.trim();
  if (after.phone.trim() !== before.phone) patch.phone = after.phone.trim() || null;
  if (after.address.trim() !== before.address) patch.address = after.address.trim() || null;
  return patch;
}

export function EditCustomerDialog({
  open,
  customer,
  path,
  onClose,
  onSaved,
}: {
  open: boolean;
  customer: Customer;
  path: string;
  onClose(): void;
  onSaved(customer: Customer): void;
}) {
  const toast = useToast();
  const [draft, setDraft] = useState(() => toDraft(customer));
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>();

  // Each opening starts from the customer as stored, not from an abandoned earlier edit.
  useEffect(() => {
    if (open) {
      setDraft(toDraft(customer));
      setError(undefined);
    }
  }, [open, customer]);

  const set = (field: keyof Draft) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setDraft({ ...draft, [field]: e.target.value });

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const patch = changes(toDraft(customer), draft);
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    setBusy(true);
    setError(undefined);
    try {
      const updated = await api.patch<Customer>(path, patch);
      toast.show(`${updated.name} saved`);
      onSaved(updated);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  const general = formError(error, ['name', 'email', 'phone', 'address']);
  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${customer.name}`}>
      <form onSubmit={submit} className="stack" noValidate aria-label="Customer details">
        {general && (
          <div className="notice notice-error" role="alert">
            {general}
          </div>
        )}
        <Field label="Name" error={fieldError(error, 'name')}>
          <Input value={draft.name} onChange={set('name')} autoFocus autoComplete="off" />
        </Field>
        <Field
          label="E-mail"
          hint="Invoices, quotes and jobs stay with the customer"
          error={fieldError(error, 'email')}
        >
          <Input type="email" value={draft.email} onChange={set('email')} autoComplete="off" />
        </Field>
        <Field label="Phone" hint="Leave empty to remove" error={fieldError(error, 'phone')}>
          <Input type="tel" value={draft.phone} onChange={set('phone')} />
        </Field>
        <Field label="Address" hint="Leave empty to remove" error={fieldError(error, 'address')}>
          <Input value={draft.address} onChange={set('address')} />
        </Field>
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
