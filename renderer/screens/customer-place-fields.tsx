import { type Dispatch, type SetStateAction, useCallback } from 'react';
import { type CustomerChoice, CustomerPicker } from './customer-picker';
import { PlacePicker } from './place-picker';

/** A draft that names a customer and the place of the work (a place id, NO_PLACE, or '' undecided). */
export interface CustomerPlaceDraft extends CustomerChoice {
  place: string;
}

/**
 * The customer of new work and where it is. Picking another customer leaves the place undecided,
 * so the new customer's default is picked rather than a place of the one picked before.
 */
export function CustomerPlaceFields<D extends CustomerPlaceDraft>({
  draft,
  setDraft,
  error,
}: {
  draft: D;
  setDraft: Dispatch<SetStateAction<D>>;
  error: unknown;
}) {
  const setPlace = useCallback((place: string) => setDraft((d) => ({ ...d, place })), [setDraft]);
  return (
    <>
      <CustomerPicker
        customerId={draft.customer_id}
        email={draft.customer_email}
        name={draft.customer_name}
        onChange={(choice) =>
          setDraft((d) => ({
            ...d,
            ...choice,
            place: choice.customer_id === d.customer_id ? d.place : '',
          }))
        }
        error={error}
        autoFocus
      />
      <PlacePicker customerId={draft.customer_id} value={draft.place} onChange={setPlace} error={error} />
    </>
  );
}
