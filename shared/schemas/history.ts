import { z } from 'zod';

/** The records that keep a history (docs/sync.md, "Decisions and history"). */
export const HISTORY_RECORD_TYPES = ['customers', 'invoices', 'quotes', 'jobs'] as const;
export type HistoryRecordType = (typeof HISTORY_RECORD_TYPES)[number];

export const HistoryQuery = z.object({
  record: z
    .string()
    .regex(
      /^(customers|invoices|quotes|jobs)\/[A-Za-z0-9_]+$/,
      'must be a record type and its id: customers/{id}, invoices/{id}, quotes/{id} or jobs/{id}',
    )
    .meta({ example: 'customers/cus_01m8917fm3c9dtzggh8rh8aawy' }),
});

export const HistoryEntry = z
  .object({
    id: z.string(),
    object: z.literal('history_entry'),
    record: z
      .string()
      .meta({ description: '`customers/{id}`, `invoices/{id}`, `quotes/{id}` or `jobs/{id}`.' }),
    field: z.string(),
    old_value: z.unknown().meta({ description: 'The value before the change (null when there was none).' }),
    new_value: z.unknown(),
    author: z
      .string()
      .meta({ description: "The install's name for an edit made here; `sync` for a pulled one." }),
    device: z.object({
      node: z.string().meta({ description: 'The install whose clock stamped the new value.' }),
      this_device: z.boolean(),
    }),
    changed_at: z.string(),
    replaced: z
      .boolean()
      .meta({ description: 'A value typed on this install that another install’s edit overwrote.' }),
    restored_at: z.string().nullable().meta({ description: 'When the old value was put back from here.' }),
    restorable: z.boolean().meta({ description: 'Whether `POST …/restore` can put `old_value` back now.' }),
  })
  .meta({ id: 'HistoryEntry' });
export type HistoryEntry = z.infer<typeof HistoryEntry>;
