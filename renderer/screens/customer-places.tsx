import { useEffect, useState } from 'react';
import { type Property, type PropertyUpdate, placeLine } from '../../shared/schemas/property';
import { api, type ListPage } from '../lib/api';
import { useDraft } from '../lib/use-draft';
import { useResource } from '../lib/use-resource';
import { useSubmit } from '../lib/use-submit';
import {
  Badge,
  Button,
  Card,
  Dialog,
  Field,
  FormActions,
  FormAlert,
  fieldError,
  Input,
  Textarea,
  useToast,
} from '../ui';

const FIELDS = [
  'label',
  'street',
  'unit',
  'city',
  'region',
  'postal_code',
  'country',
  'access_notes',
] as const;
type PlaceDraft = Record<(typeof FIELDS)[number], string>;
const EMPTY: PlaceDraft = {
  label: '',
  street: '',
  unit: '',
  city: '',
  region: '',
  postal_code: '',
  country: '',
  access_notes: '',
};

export { placeLine };

const toDraft = (p: Property): PlaceDraft =>
  Object.fromEntries(FIELDS.map((f) => [f, p[f] ?? ''])) as PlaceDraft;

/** A customer's places: where the crew goes, with the access notes only the crew sees. */
export function PlacesCard({ customerId }: { customerId: string }) {
  const toast = useToast();
  const key = `/properties?customer_id=${customerId}`;
  const places = useResource(
    () =>
      api.get<ListPage<Property>>('/properties', { customer_id: customerId, status: 'active', limit: 100 }),
    key,
  );
  const [editing, setEditing] = useState<Property | 'new' | null>(null);
  const [working, setWorking] = useState<string>();
  const act = async (place: Property, what: 'archive' | 'default') => {
    setWorking(place.id);
    try {
      if (what === 'archive') await api.post(`/properties/${place.id}/archive`, {});
      else await api.patch(`/properties/${place.id}`, { is_default: true });
      toast.show(what === 'archive' ? `${place.label ?? place.street} archived` : 'Default place changed');
      places.reload();
    } catch (failure) {
      toast.show((failure as Error).message, 'error');
    } finally {
      setWorking(undefined);
    }
  };
  const list = places.data?.data ?? [];
  return (
    <Card
      title="Places"
      actions={
        <Button size="sm" write onClick={() => setEditing('new')}>
          Add place
        </Button>
      }
    >
      <ul className="plain-list places" aria-label="Places">
        {places.data && list.length === 0 && (
          <li className="muted">No places yet: add where the work is done.</li>
        )}
        {list.map((p) => (
          <li key={p.id} className="place">
            <div>
              <strong>{p.label ?? p.street}</strong> {p.is_default && <Badge tone="info">Default</Badge>}
            </div>
            <div className="cell-sub">{placeLine(p)}</div>
            {p.access_notes && <div className="place-access">Crew: {p.access_notes}</div>}
            <div className="row">
              <Button size="sm" write onClick={() => setEditing(p)}>
                Edit
              </Button>
              {!p.is_default && (
                <Button size="sm" write busy={working === p.id} onClick={() => act(p, 'default')}>
                  Make default
                </Button>
              )}
              <Button
                size="sm"
                variant="ghost"
                write
                busy={working === p.id}
                onClick={() => act(p, 'archive')}
              >
                Archive
              </Button>
            </div>
          </li>
        ))}
      </ul>
      <PlaceDialog
        customerId={customerId}
        place={editing}
        onClose={() => setEditing(null)}
        onSaved={() => {
          setEditing(null);
          places.reload();
        }}
      />
    </Card>
  );
}

function PlaceDialog({
  customerId,
  place,
  onClose,
  onSaved,
}: {
  customerId: string;
  place: Property | 'new' | null;
  onClose(): void;
  onSaved(): void;
}) {
  const toast = useToast();
  const { draft, setDraft, set } = useDraft(EMPTY);
  const { busy, error, setError, run } = useSubmit();
  useEffect(() => {
    if (place) {
      setDraft(place === 'new' ? EMPTY : toDraft(place));
      setError(undefined);
    }
  }, [place, setDraft, setError]);
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    return run(async () => {
      const fields = Object.fromEntries(FIELDS.map((f) => [f, draft[f].trim() || null])) as PropertyUpdate;
      if (place === 'new')
        await api.post('/properties', { customer_id: customerId, ...fields, street: draft.street.trim() });
      else if (place) await api.patch(`/properties/${place.id}`, { ...fields, street: draft.street.trim() });
      toast.show(place === 'new' ? 'Place added' : 'Place saved');
      onSaved();
    });
  };
  return (
    <Dialog
      open={place !== null}
      onClose={onClose}
      title={place === 'new' ? 'Add a place' : 'Edit place'}
      wide
    >
      <form onSubmit={submit} noValidate className="stack" aria-label="Place">
        <FormAlert error={error} params={[...FIELDS]} />
        <div className="form-grid">
          <Field label="Label" hint="e.g. Building B, Cottage" error={fieldError(error, 'label')}>
            <Input value={draft.label} onChange={set('label')} />
          </Field>
          <Field label="Street" error={fieldError(error, 'street')}>
            <Input value={draft.street} onChange={set('street')} />
          </Field>
          <Field label="Unit" hint="Optional" error={fieldError(error, 'unit')}>
            <Input value={draft.unit} onChange={set('unit')} />
          </Field>
          <Field label="City" error={fieldError(error, 'city')}>
            <Input value={draft.city} onChange={set('city')} />
          </Field>
          <Field label="Region" hint="Province or state" error={fieldError(error, 'region')}>
            <Input value={draft.region} onChange={set('region')} />
          </Field>
          <Field label="Postal code" error={fieldError(error, 'postal_code')}>
            <Input value={draft.postal_code} onChange={set('postal_code')} />
          </Field>
          <Field label="Country" error={fieldError(error, 'country')}>
            <Input value={draft.country} onChange={set('country')} />
          </Field>
          <Field
            label="Access notes"
            hint="Gate code, key safe, pets, alarm: the crew sees them, the customer never does"
            error={fieldError(error, 'access_notes')}
            className="span-2"
          >
            <Textarea value={draft.access_notes} onChange={set('access_notes')} rows={3} />
          </Field>
        </div>
        <FormActions
          onCancel={onClose}
          submitLabel={place === 'new' ? 'Add place' : 'Save place'}
          busy={busy}
        />
      </form>
    </Dialog>
  );
}
