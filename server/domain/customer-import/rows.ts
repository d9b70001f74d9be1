import type { z } from 'zod';
import { CustomerCreate, NoteBody } from '../../../shared/schemas/customer';
import type {
  ImportColumns,
  ImportedCustomer,
  ImportedProperty,
  ImportField,
} from '../../../shared/schemas/customer-import';
import { PropertyCreate } from '../../../shared/schemas/property';

/** The same rules as a customer and a place typed in the UI: one schema per shape. */
const PlaceFields = PropertyCreate.omit({ customer_id: true, is_default: true });

type Values = Partial<Record<ImportField, string[]>>;

function collect(columns: ImportColumns, values: string[]): Values {
  const out: Values = {};
  columns.forEach((field, index) => {
    const value = values[index];
    if (!field || !value) return;
    out[field] = [...(out[field] ?? []), value];
  });
  return out;
}

/** Exports list several phones or e-mails in one cell ("416…, 647…"): the first one is the customer's. */
const first = (value: string | undefined) => value?.split(/[,;\n]/)[0]?.trim() || null;
const one = (values: Values, field: ImportField) => values[field]?.[0] ?? null;
const joined = (parts: Array<string | null>) => parts.filter(Boolean).join(', ') || null;

/** Tags as Shopdesk keeps them: lower case, letters, digits, spaces, - and _; others become spaces. */
function tagsOf(cells: string[] | undefined): string[] {
  const tags = (cells ?? [])
    .flatMap((cell) => cell.split(/[,;|]/))
    .map((tag) =>
      tag
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]+/gu, ' ')
        .replace(/\s+/g, ' ')
        .trim()
        .replace(/^[ _-]+/, '')
        .slice(0, 40)
        .trim(),
    )
    .filter(Boolean);
  return [...new Set(tags)];
}

function placeOf(values: Values): Record<string, string | null> | null {
  const service = {
    street: one(values, 'street'),
    unit: one(values, 'unit'),
    city: one(values, 'city'),
    region: one(values, 'region'),
    postal_code: one(values, 'postal_code'),
    country: one(values, 'country'),
  };
  const billing = {
    street: one(values, 'billing_street'),
    unit: one(values, 'billing_street2'),
    city: one(values, 'billing_city'),
    region: one(values, 'billing_region'),
    postal_code: one(values, 'billing_postal_code'),
    country: one(values, 'billing_country'),
  };
  // The service address is where the work is; a file with only a billing address has it there too.
  const place = Object.values(service).some(Boolean)
    ? service
    : Object.values(billing).some(Boolean)
      ? billing
      : null;
  if (!place) return null;
  return { ...place, label: one(values, 'property_label'), access_notes: one(values, 'access_notes') };
}

function problem(error: z.ZodError, prefix = ''): string {
  const issue = error.issues[0]!;
  const field = issue.path.join('.');
  return `${prefix}${field ? `${field}: ` : ''}${issue.message}`;
}

export type RowOutcome = { customer: ImportedCustomer; error: null } | { customer: null; error: string };

/** A data row as it will be saved, or why it cannot be. */
export function mapRow(columns: ImportColumns, values: string[], headerLength: number): RowOutcome {
  if (values.length !== headerLength && values.some(Boolean)) {
    return {
      customer: null,
      error: `has ${values.length} columns where the header has ${headerLength} (a separator or quote out of place?)`,
    };
  }
  const cells = collect(columns, values);
  const person = [one(cells, 'first_name'), one(cells, 'last_name')].filter(Boolean).join(' ') || null;
  const name = one(cells, 'name') ?? person ?? one(cells, 'company');
  if (!name) return { customer: null, error: 'has no name (nor first and last name, nor company)' };
  const place = placeOf(cells);
  const billing = joined([
    one(cells, 'billing_street'),
    one(cells, 'billing_street2'),
    one(cells, 'billing_city'),
    one(cells, 'billing_region'),
    one(cells, 'billing_postal_code'),
    one(cells, 'billing_country'),
  ]);
  const address =
    billing ??
    (place
      ? joined([
          place.street ?? null,
          place.unit ?? null,
          place.city ?? null,
          place.region ?? null,
          place.postal_code ?? null,
        ])
      : null);
  if (place && !place.street) {
    return { customer: null, error: 'has an address without a street (the place needs one)' };
  }
  const customer = CustomerCreate.safeParse({
    name,
    email: first(one(cells, 'email') ?? undefined),
    phone: first(one(cells, 'phone') ?? one(cells, 'mobile_phone') ?? undefined),
    address,
    tags: tagsOf(cells.tags),
  });
  if (!customer.success) return { customer: null, error: problem(customer.error) };
  let property: ImportedProperty | null = null;
  if (place) {
    const parsed = PlaceFields.safeParse(place);
    if (!parsed.success) return { customer: null, error: problem(parsed.error, 'place ') };
    const p = parsed.data;
    property = {
      label: p.label ?? null,
      street: p.street,
      unit: p.unit ?? null,
      city: p.city ?? null,
      region: p.region ?? null,
      postal_code: p.postal_code ?? null,
      country: p.country ?? null,
      access_notes: p.access_notes ?? null,
    };
  }
  const notes: string[] = [];
  for (const text of cells.notes ?? []) {
    const note = NoteBody.safeParse({ text });
    if (!note.success) return { customer: null, error: problem(note.error, 'note ') };
    notes.push(note.data.text);
  }
  const c = customer.data;
  return {
    customer: {
      name: c.name,
      email: c.email ?? null,
      phone: c.phone ?? null,
      address: c.address ?? null,
      tags: c.tags ?? [],
      notes,
      property,
    },
    error: null,
  };
}
