import { useState } from 'react';
import type { Customer, PossibleDuplicate } from '../../shared/schemas/customer';
import { portal } from '../lib/api';
import { href } from '../lib/router';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import { Button, Dialog, Field, FormAlert, Input, Notice, useToast } from '../ui';
import { useDebounced } from './common';

const REASONS: Record<PossibleDuplicate['reason'], string> = {
  same_name_and_phone: 'same name and phone',
  similar_email: 'e-mail one letter off',
};

/** How a customer is told apart in a list: their e-mail, else their phone, else their address. */
export function reachOf(c: Pick<Customer, 'email' | 'phone' | 'address'>): string {
  return c.email ?? c.phone ?? c.address ?? '';
}

/**
 * "Possible duplicate of …" while a new customer is typed: the same name and phone, or an e-mail
 * one letter off. It points them out; adding goes ahead if the owner wants.
 */
export function PossibleDuplicates({ name, email, phone }: { name: string; email: string; phone: string }) {
  const probe = useDebounced({ name: name.trim(), email: email.trim(), phone: phone.trim() }, 300);
  const key = JSON.stringify(probe);
  const worth = (probe.name && probe.phone.replace(/\D/g, '').length >= 3) || probe.email.includes('@');
  const found = useResource(
    () =>
      worth
        ? portal.get('/customers/possible-duplicates', {
            params: {
              query: {
                ...(probe.name && { name: probe.name }),
                ...(probe.email && { email: probe.email }),
                ...(probe.phone && { phone: probe.phone }),
              },
            },
          })
        : Promise.resolve({ data: [] }),
    `duplicates:${key}`,
  );
  const duplicates = found.data?.data ?? [];
  if (duplicates.length === 0) return null;
  return (
    <Notice tone="warning">
      <ul className="plain-list" data-testid="possible-duplicates">
        {duplicates.map(({ customer, reason }) => (
          <li key={customer.id}>
            Possible duplicate of{' '}
            <a href={href('customers', customer.id)}>
              <strong>{customer.name}</strong>
            </a>{' '}
            ({reachOf(customer)}; {REASONS[reason]}).
          </li>
        ))}
      </ul>
    </Notice>
  );
}

/**
 * Merges another customer into this one: the owner finds the duplicate, confirms, and everything
 * of theirs moves here (on every synced device).
 */
export function MergeCustomerDialog({
  open,
  customer,
  onClose,
  onMerged,
}: {
  open: boolean;
  customer: Customer;
  onClose(): void;
  onMerged(): void;
}) {
  const toast = useToast();
  const [term, setTerm] = useState('');
  const [chosen, setChosen] = useState<Customer | null>(null);
  const { busy, error, setError, run } = useSubmit();
  const wanted = useDebounced(term.trim());
  const found = useResource(
    () =>
      wanted.length >= 2
        ? portal.get('/customers', { params: { query: { q: wanted, limit: 8 } } })
        : Promise.resolve(null),
    `merge-find:${wanted}`,
  );
  const others = (found.data?.data ?? []).filter((c) => c.id !== customer.id);
  const close = () => {
    setTerm('');
    setChosen(null);
    setError(undefined);
    onClose();
  };
  const merge = async () => {
    if (!chosen) return;
    await run(async () => {
      await portal.post('/customers/{email}/merge', {
        params: { path: { email: customer.id } },
        body: { from: chosen.id },
      });
      toast.show(`${chosen.name} merged into ${customer.name}`);
      setChosen(null);
      setTerm('');
      onMerged();
      onClose();
    });
  };
  // One dialog that asks twice: a second native dialog opening as the first closes would close both.
  return (
    <Dialog
      open={open}
      onClose={close}
      title={
        chosen ? `Merge ${chosen.name} into ${customer.name}?` : `Merge a duplicate into ${customer.name}`
      }
      footer={
        chosen && (
          <>
            <Button onClick={() => setChosen(null)}>Back</Button>
            <Button variant="danger" write busy={busy} onClick={merge}>
              Merge
            </Button>
          </>
        )
      }
    >
      {chosen ? (
        <div className="stack">
          <FormAlert error={error} params={[]} />
          <p>
            Everything of {chosen.name} ({reachOf(chosen)}) moves to {customer.name}, who keeps their own
            details and takes the e-mail, phone or address they lack. This cannot be undone.
          </p>
        </div>
      ) : (
        <div className="stack">
          <p className="muted">
            Find the other record of this customer. Their jobs, quotes, invoices, payments, bookings, plans,
            reviews, notes and tags move to {customer.name}, and the other record is removed.
          </p>
          <Field label="Find the duplicate" hint="Name, e-mail or phone">
            <Input
              type="search"
              value={term}
              onChange={(event) => setTerm(event.target.value)}
              autoComplete="off"
            />
          </Field>
          {wanted.length >= 2 && found.data && (
            <ul className="picker-list" aria-label="Customers to merge">
              {others.map((c) => (
                <li key={c.id}>
                  <button type="button" className="picker-option" onClick={() => setChosen(c)}>
                    <strong>{c.name}</strong>
                    <span className="cell-sub">{reachOf(c)}</span>
                  </button>
                </li>
              ))}
              {others.length === 0 && <li className="muted picker-empty">Nobody else matches “{wanted}”.</li>}
            </ul>
          )}
        </div>
      )}
    </Dialog>
  );
}
