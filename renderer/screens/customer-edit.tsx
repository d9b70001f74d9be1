import { useEffect } from 'react';
import type { Customer, CustomerUpdate } from '../../shared/schemas/customer';
import { portal } from '../lib/api';
import { useDraft } from '../lib/use-draft';
import { useSubmit } from '../lib/use-submit';
import { Dialog, FormActions, FormAlert, useToast } from '../ui';
import { CONTACT_PARAMS, CustomerContactFields, type ContactDraft as Draft } from './customer-fields';

const toDraft = (c: Customer): Draft => ({
  name: c.name,
  email: c.email ?? '',
  phone: c.phone ?? '',
  address: c.address ?? '',
});

/** Only what changed goes to the server; a cleared phone or address is sent as null. */
function changes(before: Draft, after: Draft): CustomerUpdate {
  const patch: CustomerUpdate = {};
  if (after.name !== before.name) patch.name = after.name;
  if (after.email.trim() !== before.email) patch.email = after.email.trim() || null;
  if (after.phone.trim() !== before.phone) patch.phone = after.phone.trim() || null;
  if (after.address.trim() !== before.address) patch.address = after.address.trim() || null;
  return patch;
}

export function EditCustomerDialog({
  open,
  customer,
  onClose,
  onSaved,
}: {
  open: boolean;
  customer: Customer;
  onClose(): void;
  onSaved(customer: Customer): void;
}) {
  const toast = useToast();
  const { draft, setDraft, set } = useDraft(() => toDraft(customer));
  const { busy, error, setError, run } = useSubmit();

  // Each opening starts from the customer as stored, not from an abandoned earlier edit.
  useEffect(() => {
    if (open) {
      setDraft(toDraft(customer));
      setError(undefined);
    }
  }, [open, customer, setDraft, setError]);

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const patch = changes(toDraft(customer), draft);
    if (Object.keys(patch).length === 0) {
      onClose();
      return;
    }
    await run(async () => {
      const updated = await portal.patch('/customers/{email}', {
        params: { path: { email: customer.id } },
        body: patch,
      });
      toast.show(`${updated.name} saved`);
      onSaved(updated);
    });
  };

  return (
    <Dialog open={open} onClose={onClose} title={`Edit ${customer.name}`}>
      <form onSubmit={submit} className="stack" noValidate aria-label="Customer details">
        <FormAlert error={error} params={CONTACT_PARAMS} />
        <CustomerContactFields
          draft={draft}
          set={set}
          error={error}
          emailHint="Invoices, quotes and jobs stay with the customer"
          optionalHint="Leave empty to remove"
        />
        <FormActions onCancel={onClose} submitLabel="Save changes" busy={busy} />
      </form>
    </Dialog>
  );
}
