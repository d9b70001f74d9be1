import type { ImportColumns, ImportField, ImportPreset } from '../../../shared/schemas/customer-import';

/**
 * The client exports Shopdesk recognises, by their header rows, and what each column becomes.
 * docs/import-export.md lists the header sets and where they were found. Headers are compared
 * without case, spaces or punctuation, so "Billing Zip code" and "billing zip-code" are one.
 */
type HeaderMap = Record<string, ImportField | null>;

const JOBBER: HeaderMap = {
  'J-ID': null,
  'Display Name': 'name',
  'Company Name': 'company',
  Title: null,
  'First Name': 'first_name',
  'Last Name': 'last_name',
  'Main Phone #s': 'phone',
  'Mobile Phone #s': 'mobile_phone',
  'Home Phone #s': null,
  'Work Phone #s': null,
  'Fax Phone #s': null,
  'Other Phone #s': null,
  'E-mails': 'email',
  Tags: 'tags',
  'Billing Street 1': 'billing_street',
  'Billing Street 2': 'billing_street2',
  'Billing City': 'billing_city',
  'Billing State': 'billing_region',
  'Billing Country': 'billing_country',
  'Billing Zip code': 'billing_postal_code',
  'Service Property Name': 'property_label',
  'Service Street 1': 'street',
  'Service Street 2': 'unit',
  'Service City': 'city',
  'Service State': 'region',
  'Service Country': 'country',
  'Service Zip code': 'postal_code',
  'Created Date': null,
  Archived: null,
  Lead: null,
};

const HOUSECALL_PRO: HeaderMap = {
  'Display Name': 'name',
  'First Name': 'first_name',
  'Last Name': 'last_name',
  Email: 'email',
  Company: 'company',
  'Mobile Phone': 'mobile_phone',
  'Home Phone': 'phone',
  'Work Phone': null,
  'Customer Tags': 'tags',
  Address: null,
  Street: 'street',
  'Street Line 2': 'unit',
  City: 'city',
  State: 'region',
  Zip: 'postal_code',
  Notes: 'notes',
  'Lead Source': null,
};

const QUICKBOOKS_ONLINE: HeaderMap = {
  Customer: 'name',
  'Company name': 'company',
  Company: 'company',
  'Street Address': 'billing_street',
  City: 'billing_city',
  State: 'billing_region',
  Country: 'billing_country',
  Zip: 'billing_postal_code',
  Phone: 'phone',
  Email: 'email',
  Attachments: null,
  'Open Balance': null,
  Notes: 'notes',
};

/** Headers only this export has: a file is that export when it has all of them. */
const PRESETS: Array<{ preset: ImportPreset; headers: HeaderMap; telling: string[] }> = [
  { preset: 'jobber', headers: JOBBER, telling: ['J-ID', 'E-mails', 'Billing Street 1', 'Service Street 1'] },
  {
    preset: 'housecall_pro',
    headers: HOUSECALL_PRO,
    telling: ['Display Name', 'Mobile Phone', 'Customer Tags', 'Street Line 2'],
  },
  {
    preset: 'quickbooks_online',
    headers: QUICKBOOKS_ONLINE,
    telling: ['Customer', 'Street Address', 'Open Balance'],
  },
];

export const headerKey = (header: string) => header.toLowerCase().replace(/[^\p{L}\p{N}#]+/gu, '');

/** Common spellings of each field in spreadsheets an owner made, for the first guess at a mapping. */
const SPELLINGS: Record<ImportField, string[]> = {
  name: ['name', 'full name', 'customer', 'customer name', 'client', 'client name', 'display name'],
  first_name: ['first name', 'firstname', 'given name'],
  last_name: ['last name', 'lastname', 'surname', 'family name'],
  company: ['company', 'company name', 'business'],
  email: ['email', 'e-mail', 'email address', 'e-mails', 'emails'],
  phone: ['phone', 'phone number', 'telephone', 'tel', 'main phone'],
  mobile_phone: ['mobile', 'mobile phone', 'cell', 'cell phone'],
  billing_street: ['billing street', 'billing address', 'billing street 1'],
  billing_street2: ['billing street 2'],
  billing_city: ['billing city'],
  billing_region: ['billing state', 'billing province'],
  billing_postal_code: ['billing zip', 'billing postal code'],
  billing_country: ['billing country'],
  street: ['street', 'address', 'street address', 'address 1', 'address line 1'],
  unit: ['unit', 'apt', 'suite', 'address 2', 'address line 2', 'street 2'],
  city: ['city', 'town'],
  region: ['state', 'province', 'region'],
  postal_code: ['zip', 'zip code', 'postal code', 'postcode'],
  country: ['country'],
  property_label: ['property name', 'property', 'location name'],
  access_notes: ['access notes', 'gate code', 'access'],
  tags: ['tags', 'tag', 'labels'],
  notes: ['notes', 'note', 'comments'],
};

const byKey = (map: HeaderMap) =>
  new Map(Object.entries(map).map(([header, field]) => [headerKey(header), field]));

const guesses = new Map<string, ImportField>(
  Object.entries(SPELLINGS).flatMap(([field, names]) =>
    names.map((n) => [headerKey(n), field as ImportField]),
  ),
);

/** The export a header row comes from, if it is one Shopdesk knows, and the mapping for it. */
export function suggestColumns(headers: string[]): { preset: ImportPreset | null; columns: ImportColumns } {
  const keys = headers.map(headerKey);
  const present = new Set(keys);
  const known = PRESETS.find((p) => p.telling.every((h) => present.has(headerKey(h))));
  const map = known ? byKey(known.headers) : null;
  const used = new Set<ImportField>();
  const columns = keys.map((key) => {
    const field = map ? (map.get(key) ?? null) : (guesses.get(key) ?? null);
    // A field filled by two columns would take the later one silently: the first keeps it.
    if (!field || (used.has(field) && field !== 'notes')) return null;
    used.add(field);
    return field;
  });
  return { preset: known?.preset ?? null, columns };
}

/** The header sets, for the docs and the tests that check files against them. */
export const PRESET_HEADERS: Record<ImportPreset, string[]> = {
  jobber: Object.keys(JOBBER),
  housecall_pro: Object.keys(HOUSECALL_PRO),
  quickbooks_online: Object.keys(QUICKBOOKS_ONLINE).filter((h) => h !== 'Company'),
};
