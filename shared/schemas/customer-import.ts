import { z } from 'zod';
import { Timestamp } from './common';

/** What a column of an uploaded file can become (docs/import-export.md lists them). */
export const IMPORT_FIELDS = [
  'name',
  'first_name',
  'last_name',
  'company',
  'email',
  'phone',
  'mobile_phone',
  'billing_street',
  'billing_street2',
  'billing_city',
  'billing_region',
  'billing_postal_code',
  'billing_country',
  'street',
  'unit',
  'city',
  'region',
  'postal_code',
  'country',
  'property_label',
  'access_notes',
  'tags',
  'notes',
] as const;
export const ImportField = z.enum(IMPORT_FIELDS);
export type ImportField = z.infer<typeof ImportField>;

export const IMPORT_PRESETS = ['jobber', 'housecall_pro', 'quickbooks_online'] as const;
export const ImportPreset = z.enum(IMPORT_PRESETS);
export type ImportPreset = z.infer<typeof ImportPreset>;

/** One entry per column of the file, in order: the field it fills, or null to leave it out. */
export const ImportColumns = z
  .array(ImportField.nullable())
  .max(500)
  .meta({ description: 'One entry per column of the file, in order: the field it fills, or null.' });
export type ImportColumns = z.infer<typeof ImportColumns>;

export const ImportPreviewBody = z.strictObject({ columns: ImportColumns });

export const ImportRunBody = z.strictObject({
  columns: ImportColumns,
  on_match: z.enum(['update', 'skip']).default('skip').meta({
    description:
      'A row matching an existing customer (same e-mail, or same name and phone): update it, or skip the row.',
  }),
  send_events: z
    .boolean()
    .default(false)
    .meta({ description: 'Send customer.created for each new customer (import only; never on a dry run).' }),
});
export type ImportRunBody = z.infer<typeof ImportRunBody>;

export const ImportedProperty = z.object({
  label: z.string().nullable(),
  street: z.string(),
  unit: z.string().nullable(),
  city: z.string().nullable(),
  region: z.string().nullable(),
  postal_code: z.string().nullable(),
  country: z.string().nullable(),
  access_notes: z.string().nullable(),
});
export type ImportedProperty = z.infer<typeof ImportedProperty>;

/** A row as it will be saved. */
export const ImportedCustomer = z.object({
  name: z.string(),
  email: z.string().nullable(),
  phone: z.string().nullable(),
  address: z.string().nullable(),
  tags: z.array(z.string()),
  notes: z.array(z.string()),
  property: ImportedProperty.nullable(),
});
export type ImportedCustomer = z.infer<typeof ImportedCustomer>;

export const PreviewRow = z.object({
  row: z.number().int().meta({ description: "The row's line in the file (the header is row 1)." }),
  customer: ImportedCustomer.nullable(),
  error: z.string().nullable(),
});
export type PreviewRow = z.infer<typeof PreviewRow>;

export const RejectedRow = z.object({ row: z.number().int(), reason: z.string() });
export type RejectedRow = z.infer<typeof RejectedRow>;

export const ImportSummary = z.object({
  rows: z.number().int().meta({ description: 'Data rows read (the header not counted).' }),
  added: z.number().int(),
  updated: z.number().int(),
  skipped: z.number().int().meta({ description: 'Rows matching an existing customer, left as they are.' }),
  rejected: z.number().int(),
  rejected_rows: z
    .array(RejectedRow)
    .meta({ description: 'The first 100; the CSV of rejected rows has all.' }),
  on_match: z.enum(['update', 'skip']),
  events_sent: z.number().int(),
});
export type ImportSummary = z.infer<typeof ImportSummary>;

export const ImportRun = z
  .object({
    phase: z.enum(['dry_run', 'import', 'undo']),
    state: z.enum(['running', 'succeeded', 'failed']),
    rows_done: z
      .number()
      .int()
      .meta({ description: 'Rows read so far (for an undo: customers taken back).' }),
    rows_total: z.number().int().meta({ description: "The file's data rows (for an undo: its customers)." }),
    error: z
      .object({ code: z.string(), message: z.string() })
      .nullable()
      .meta({ description: 'Why a failed run failed; nothing it did was kept.' }),
    started_at: Timestamp,
    finished_at: Timestamp.nullable(),
  })
  .meta({
    description:
      'The last dry run, import or undo. Runs go on in the background: poll the import until state is no longer running.',
  });
export type ImportRun = z.infer<typeof ImportRun>;

export const CustomerImport = z
  .object({
    id: z.string().meta({ example: 'imp_01jd3k5x2m9q7r8s6t4v2w0y1z' }),
    object: z.literal('customer_import'),
    file_name: z.string(),
    size_bytes: z.number().int(),
    encoding: z.enum(['utf-8', 'windows-1252']),
    delimiter: z.string(),
    headers: z.array(z.string()),
    preset: ImportPreset.nullable().meta({ description: 'The export this file was recognised as, if any.' }),
    columns: ImportColumns.meta({ description: 'The suggested mapping (the preset, else by header names).' }),
    status: z.enum(['uploaded', 'imported', 'undone']),
    dry_run: ImportSummary.nullable(),
    result: ImportSummary.nullable(),
    undoable: z
      .boolean()
      .meta({ description: 'Imported, not undone yet, and no customer it wrote was touched since.' }),
    run: ImportRun.nullable(),
    created_at: Timestamp,
    imported_at: Timestamp.nullable(),
    undone_at: Timestamp.nullable(),
  })
  .meta({ id: 'CustomerImport' });
export type CustomerImport = z.infer<typeof CustomerImport>;
