import { useState } from 'react';
import { portal } from '../lib/api';
import { useResource } from '../lib/use-resource';
import { Button, Field, fieldError, Input } from '../ui';

/** The customer a form names: one picked from the list (by id), or an e-mail typed for a new one. */
export interface CustomerChoice {
  /** The picked customer's id; empty when the e-mail typed names the customer. */
  customer_id: string;
  customer_email: string;
  customer_name: string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const search = (q: string) => portal.get('/customers', { params: { query: { q, limit: 6 } } });

/**
 * The customer of a form, found by name, e-mail or phone, so nobody types an existing customer's
 * e-mail from memory (a typo there made a new customer). The e-mail field stays for a new
 * customer, and says whether the e-mail typed is someone on file or creates someone new.
 */
export function CustomerPicker({
  customerId,
  email,
  name,
  onChange,
  error,
  emailHint,
  autoFocus,
}: {
  customerId: string;
  email: string;
  name: string;
  onChange(choice: CustomerChoice): void;
  error: unknown;
  /** What leaving the e-mail empty means here, when it may be empty. */
  emailHint?: string;
  autoFocus?: boolean;
}) {
  const [term, setTerm] = useState('');
  const wanted = term.trim();
  const found = useResource(
    () => (wanted.length >= 2 ? search(wanted) : Promise.resolve(null)),
    `find:${wanted}`,
  );
  const typed = email.trim().toLowerCase();
  const onFile = useResource(
    () => (EMAIL.test(typed) ? search(typed) : Promise.resolve(null)),
    `on-file:${typed}`,
  );
  const known = onFile.data?.data.find((c) => c.email?.toLowerCase() === typed);
  const matches = found.data?.data ?? [];
  // A customer without e-mail is named by id: picked, the form shows them rather than an e-mail field.
  const pickedWithoutEmail = customerId !== '' && email === '';

  const emailStatus = known
    ? `On file: ${known.name}`
    : EMAIL.test(typed)
      ? 'No customer has this e-mail yet: a new one is added. Check the spelling.'
      : (emailHint ?? 'Needed: invoices and quotes go out by e-mail, and it tells customers apart.');

  return (
    <>
      <Field label="Find a customer" hint="Name, e-mail or phone" className="span-2">
        <Input
          type="search"
          value={term}
          onChange={(event) => setTerm(event.target.value)}
          autoFocus={autoFocus}
          autoComplete="off"
          aria-controls="customer-matches"
        />
        {wanted.length >= 2 && found.data && (
          <ul id="customer-matches" className="picker-list" aria-label="Matching customers">
            {matches.map((c) => (
              <li key={c.id}>
                <button
                  type="button"
                  className="picker-option"
                  onClick={() => {
                    onChange({ customer_id: c.id, customer_email: c.email ?? '', customer_name: c.name });
                    setTerm('');
                  }}
                >
                  <strong>{c.name}</strong>
                  <span className="cell-sub">{[c.email, c.phone].filter(Boolean).join(' · ')}</span>
                </button>
              </li>
            ))}
            {matches.length === 0 && (
              <li className="muted picker-empty">
                Nobody matches “{wanted}”. Add them with their e-mail below, or under Customers without one.
              </li>
            )}
          </ul>
        )}
      </Field>
      {pickedWithoutEmail ? (
        <Field
          label="Customer"
          hint="No e-mail on file: documents are printed or downloaded, not e-mailed"
          error={fieldError(error, 'customer_id')}
          className="span-2"
        >
          <div className="picked-customer">
            <strong data-testid="picked-customer">{name}</strong>
            <Button
              size="sm"
              onClick={() => onChange({ customer_id: '', customer_email: '', customer_name: '' })}
            >
              Change
            </Button>
          </div>
        </Field>
      ) : (
        <>
          <Field label="Customer e-mail" hint={emailStatus} error={fieldError(error, 'customer_email')}>
            <Input
              type="email"
              value={email}
              onChange={(event) =>
                onChange({ customer_id: '', customer_email: event.target.value, customer_name: name })
              }
              autoComplete="off"
            />
          </Field>
          <Field
            label="Customer name"
            hint={known ? 'As on file' : 'For a new customer'}
            error={fieldError(error, 'customer_name')}
          >
            <Input
              value={known ? known.name : name}
              readOnly={Boolean(known)}
              onChange={(event) =>
                onChange({ customer_id: '', customer_email: email, customer_name: event.target.value })
              }
            />
          </Field>
        </>
      )}
    </>
  );
}
