import type { Property } from './schemas/property';

type PlaceAddress = Pick<Property, 'street' | 'unit' | 'city' | 'region' | 'postal_code'>;

/** One line of a place's address, as the crew reads it (a job's address, a feed's LOCATION). */
export function placeLine(p: PlaceAddress): string {
  const street = p.unit ? `${p.unit} – ${p.street}` : p.street;
  return [street, p.city, [p.region, p.postal_code].filter(Boolean).join(' ')].filter(Boolean).join(', ');
}
