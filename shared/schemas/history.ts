import { z } from 'zod';

/** The records that keep a history (docs/sync.md, "Decisions and history"). */
export const HISTORY_RECORD_TYPES = ['customers', 'invoices', 'quotes', 'jobs'] as const;
export type HistoryRecordType = (typeof HISTORY_RECORD_TYPES)[number];

/** Who made a change: `other` is an entry from before actors were kept (the install's host name). */
export const HISTORY_AUTHOR_KINDS = [
  'member',
  'owner',
  'api_key',
  'client_link',
  'system',
  'sync',
  'other',
] as const;
export type HistoryAuthorKind = (typeof HISTORY_AUTHOR_KINDS)[number];

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
    author: z.string().meta({
      description:
        "Who made the change: `member:{id}`, `owner` (the install's own sign-in), `api_key:{id}`, `client_link:{id}` (a customer on the client hub), `system` (scheduled work, sync); `sync` for a change pulled from an install that did not say, or the install's host name for an entry from before.",
    }),
    author_kind: z.enum(HISTORY_AUTHOR_KINDS),
    author_name: z.string().meta({
      description:
        'The author in words: the member\'s name, "API key {name}", "Customer via the client hub", "Shopdesk" for the system.',
    }),
    device: z.object({
      node: z.string().meta({ description: 'The install whose clock stamped the new value.' }),
      this_device: z.boolean(),
      name: z.string().nullable().meta({
        description:
          'The name the hub knows that install by, for a change pulled from it; null for one made here, or pulled before names were kept.',
      }),
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
