import { useEffect, useState } from 'react';
import { createPortal } from 'react-dom';
import { placeLine } from '../../shared/place';
import { portal } from '../lib/api';
import { useResource } from '../lib/use-resource';
import { Button, Field, fieldError, Select } from '../ui';
import { PlaceDialog } from './customer-places';
import '../styles/place-picker.css';

/** What a form holds for its place: a place id, NO_PLACE, or '' until the customer's default is known. */
export const NO_PLACE = 'none';

/** The body field for a picked place: the id, null for none, nothing while undecided (the server's default). */
export function placeField(value: string): { property_id?: string | null } {
  if (value === NO_PLACE) return { property_id: null };
  return value ? { property_id: value } : {};
}

/**
 * Where a job is, as a body: at a place, the place (its address comes with it); otherwise the
 * address typed, which an edit may clear.
 */
export function workPlaceFields(
  place: string,
  address: string,
  clearing: boolean,
): { property_id?: string | null; address?: string | null } {
  if (place && place !== NO_PLACE) return { property_id: place };
  const typed = address.trim();
  return { ...placeField(place), ...(typed || clearing ? { address: typed || null } : {}) };
}

/**
 * Where the work is: one of the customer's active places, their default picked at first, with the
 * crew's access notes under it. A place missing from the list is added without leaving the form.
 */
export function PlacePicker({
  customerId,
  value,
  onChange,
  error,
  noneLabel = 'No place: the customer’s address',
  className = 'span-2',
}: {
  customerId: string;
  value: string;
  onChange(value: string): void;
  error: unknown;
  noneLabel?: string;
  className?: string;
}) {
  const [adding, setAdding] = useState(false);
  const places = useResource(
    () =>
      customerId
        ? portal.get('/properties', {
            params: { query: { customer_id: customerId, status: 'active', limit: 100 } },
          })
        : Promise.resolve(null),
    `places:${customerId}`,
  );
  const list = places.data?.data ?? [];
  const fallback = list.find((p) => p.is_default)?.id ?? (list.length ? list[0]!.id : NO_PLACE);
  // Until the owner picks, the form holds the customer's default.
  useEffect(() => {
    if (places.data && value === '') onChange(fallback);
  }, [places.data, value, fallback, onChange]);
  if (!customerId) return null;
  const chosen = list.find((p) => p.id === value);
  const known = value === '' || value === NO_PLACE || chosen !== undefined;
  return (
    <>
      <Field
        label="Place"
        error={fieldError(error, 'property_id')}
        hint={chosen?.access_notes ? `Crew: ${chosen.access_notes}` : 'Where the work is'}
        className={`place-picker ${className}`}
      >
        <div className="place-picker-row">
          <Select value={value} onChange={(event) => onChange(event.target.value)} disabled={!places.data}>
            {value === '' && <option value="">Loading places…</option>}
            {!known && <option value={value}>A place no longer offered</option>}
            {list.map((p) => (
              <option key={p.id} value={p.id}>
                {[p.label, placeLine(p)].filter(Boolean).join(' — ')}
                {p.is_default ? ' (default)' : ''}
              </option>
            ))}
            <option value={NO_PLACE}>{noneLabel}</option>
          </Select>
          <Button size="sm" variant="ghost" onClick={() => setAdding(true)}>
            Add a place
          </Button>
        </div>
      </Field>
      {/* Outside the form the picker is in: a form holds no other form. */}
      {createPortal(
        <PlaceDialog
          customerId={customerId}
          place={adding ? 'new' : null}
          onClose={() => setAdding(false)}
          onSaved={(added) => {
            setAdding(false);
            places.reload();
            onChange(added.id);
          }}
        />,
        document.body,
      )}
    </>
  );
}
