import { z } from 'zod';
import { Timestamp } from './common';

/** Wire shapes of sync: the device-to-hub protocol (/api/sync/v1) and the owner's Settings > Sync. */

export const SYNC_SCHEMA_HEADER = 'shopdesk-schema-version';

/** A row as the hub holds it: column values, a clock per column, `_deleted` for a tombstone. */
export const RowState = z
  .object({
    v: z.record(z.string(), z.unknown()),
    c: z.record(z.string(), z.string()),
    a: z
      .record(
        z.string(),
        z.object({
          by: z.string().max(200),
          on: z.string().max(200).optional(),
        }),
      )
      .optional()
      .meta({
        description:
          "Who wrote each column's value (`member:<id>`, `owner`, `api_key:<id>`, `client_link:<id>`, `system`) and, from the hub, the device's name. Absent for values written before it was kept.",
      }),
  })
  .meta({ id: 'SyncRowState' });

const TableName = z.string().regex(/^[a-z_]{1,64}$/);

export const SyncPushRequest = z
  .object({
    changes: z
      .array(
        z.object({
          local_seq: z.number().int().positive(),
          table: TableName,
          pk: z.string().min(2).max(1024),
          state: RowState,
        }),
      )
      .max(1000),
  })
  .meta({ id: 'SyncPushRequest' });

export const SyncPushResponse = z
  .object({
    acknowledged: z
      .number()
      .int()
      .meta({ description: 'The highest local_seq of the device the hub holds.' }),
    accepted: z.number().int(),
    last_seq: z.number().int(),
    hub_time: Timestamp,
  })
  .meta({ id: 'SyncPushResponse' });

export const SyncPullQuery = z.object({
  cursor: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(2000).default(500),
  wait: z.coerce
    .number()
    .int()
    .min(0)
    .max(30)
    .default(0)
    .meta({ description: 'Seconds to hold the request open when nothing is new (long poll).' }),
});

export const SyncPullResponse = z
  .object({
    rows: z.array(z.object({ seq: z.number().int(), table: z.string(), pk: z.string(), state: RowState })),
    cursor: z.number().int(),
    has_more: z.boolean(),
    hub_time: Timestamp,
  })
  .meta({ id: 'SyncPullResponse' });

export const SyncSnapshotQuery = z.object({
  table: z
    .string()
    .regex(/^_?[a-z_]{1,64}$/)
    .meta({ description: 'The table to read: `_alias` (merged records) first, then each synced table.' }),
  after: z
    .string()
    .max(1024)
    .default('')
    .meta({ description: "The previous page's `next`; empty for a table's first page." }),
  up_to: z.coerce
    .number()
    .int()
    .min(0)
    .optional()
    .meta({ description: "The first page's `up_to`, on every later page: the snapshot stays at it." }),
  limit: z.coerce.number().int().min(1).max(10_000).default(5000),
});

export const SyncSnapshotResponse = z
  .object({
    table: z.string(),
    up_to: z.number().int().meta({
      description: 'The sequence number the snapshot stands at: pull from it once every table is read.',
    }),
    rows: z
      .array(
        z.tuple([
          z.array(z.unknown()),
          z.record(z.string(), z.unknown()),
          z.union([z.literal(0), z.record(z.string(), z.string())]),
        ]),
      )
      .meta({
        description:
          'Each row as [key, values, clocks]; clocks are 0 when all are empty (unchanged since the business first synced).',
      }),
    next: z
      .string()
      .nullable()
      .meta({ description: 'Pass as `after` for the next page; null: the table is done.' }),
  })
  .meta({ id: 'SyncSnapshotResponse' });

/**
 * SyncSnapshotResponse as a device reads it: the same rules, but each row checked where it lies.
 * The schema copies every row's values and clocks, and a page holds thousands (a first sync reads
 * millions): the copies were a tenth of the joiner's time and most of its garbage.
 */
export const SyncSnapshotPage = SyncSnapshotResponse.extend({
  rows: z.array(z.unknown()).check((check) => {
    const rows = check.value;
    for (let i = 0; i < rows.length; i++) {
      const problem = snapshotRowProblem(rows[i]);
      if (problem) {
        check.issues.push({
          code: 'custom',
          input: rows[i],
          message: problem.message,
          path: [i, ...problem.path],
        });
        return;
      }
    }
  }),
}) as unknown as z.ZodType<SyncSnapshotResponse>;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** What is wrong with a row of a snapshot page, by the rules of SyncSnapshotResponse's rows. */
function snapshotRowProblem(row: unknown): { message: string; path: Array<string | number> } | undefined {
  if (!Array.isArray(row) || row.length !== 3) return { message: 'Expected [key, values, clocks]', path: [] };
  if (!Array.isArray(row[0])) return { message: 'Expected an array', path: [0] };
  if (!isRecord(row[1])) return { message: 'Expected a record', path: [1] };
  const clocks: unknown = row[2];
  if (clocks === 0) return undefined;
  if (!isRecord(clocks)) return { message: 'Expected 0 or a record of clocks', path: [2] };
  for (const column in clocks) {
    if (typeof clocks[column] !== 'string') return { message: 'Expected a string', path: [2, column] };
  }
  return undefined;
}

export const SyncJoinRequest = z
  .object({
    code: z.string().min(4).max(64),
    name: z.string().min(1).max(100).optional(),
    known_accounts: z.array(z.string().max(64)).max(100).optional().meta({
      description: 'Businesses the joining folder holds already; joining one of them again is refused.',
    }),
  })
  .meta({ id: 'SyncJoinRequest' });

export const SyncJoinResponse = z
  .object({
    client_id: z.string(),
    device_id: z.string(),
    device_code: z.string(),
    credential: z.string().meta({ description: 'The device credential (sd_sync_…), shown once.' }),
    hub_time: Timestamp,
  })
  .meta({ id: 'SyncJoinResponse' });

export const SyncLeaseRequest = z
  .object({
    series: z
      .array(z.enum(['invoice', 'quote', 'job']))
      .min(1)
      .max(3),
    size: z.number().int().min(1).max(1000).default(100),
  })
  .meta({ id: 'SyncLeaseRequest' });

export const SyncLeaseResponse = z
  .object({
    blocks: z.array(z.object({ series: z.string(), start: z.number().int(), end: z.number().int() })),
  })
  .meta({ id: 'SyncLeaseResponse' });

export const SyncDevice = z
  .object({
    id: z.string(),
    name: z.string(),
    code: z.string(),
    role: z.enum(['hub', 'device']),
    created_at: Timestamp,
    last_seen_at: Timestamp.nullable(),
    revoked_at: Timestamp.nullable(),
  })
  .meta({ id: 'SyncDevice' });

export const SyncConflict = z
  .object({
    id: z.string(),
    kind: z.enum([
      'overpaid_invoice',
      'paid_invoice_voided',
      'paid_invoice_deleted',
      'job_completed_and_cancelled',
      'quote_accepted_and_declined',
      'customer_deleted',
    ]),
    record_type: z.enum(['invoice', 'job', 'quote']),
    record_id: z.string(),
    message: z.string(),
    detected_at: Timestamp,
  })
  .meta({ id: 'SyncConflict' });

export const SyncStatus = z
  .object({
    role: z.enum(['hub', 'device', 'standalone']),
    hub_url: z.string().nullable(),
    device_id: z.string().nullable(),
    online: z.boolean(),
    last_synced_at: Timestamp.nullable(),
    last_error: z.string().nullable(),
    pending: z.number().int().meta({ description: 'Local changes not yet acknowledged by the hub.' }),
    conflicts: z.number().int().meta({ description: 'Conflicts waiting for the owner.' }),
    devices: z.array(SyncDevice).optional().meta({ description: 'On the hub: every paired device.' }),
  })
  .meta({ id: 'SyncStatus' });

export const SyncRound = z
  .object({
    pushed: z.number().int(),
    pulled: z.number().int(),
    pending: z.number().int(),
    cursor: z.number().int(),
    conflicts: z.number().int(),
  })
  .meta({ id: 'SyncRound' });

export const SyncPairRequest = z
  .strictObject({
    name: z
      .string()
      .min(1)
      .max(100)
      .optional()
      .meta({ description: 'A name for the device, e.g. "Van laptop".' }),
  })
  .meta({ id: 'SyncPairRequest' });

export const SyncPairing = z
  .object({
    pairing_code: z.string(),
    hub_url: z.string(),
    fingerprint: z.string().nullable().meta({
      description: "SHA-256 of the hub's own HTTPS certificate, which the device pins; null otherwise.",
    }),
    pairing_link: z
      .string()
      .meta({ description: 'The code and hub in one link, to paste on the new device.' }),
    expires_at: Timestamp,
  })
  .meta({ id: 'SyncPairing' });

export const SyncJoinHubRequest = z
  .strictObject({
    hub_url: z
      .url()
      .max(500)
      .meta({ description: 'The hub, e.g. http://192.168.1.20:4300; a pairing link also works.' }),
    code: z
      .string()
      .min(4)
      .max(64)
      .optional()
      .meta({ description: 'Not needed when hub_url is a pairing link.' }),
    fingerprint: z.string().max(200).optional().meta({
      description:
        "The hub certificate's SHA-256 fingerprint shown at pairing (the pairing link has it too).",
    }),
    name: z.string().trim().min(1).max(100).optional(),
  })
  .meta({ id: 'SyncJoinHubRequest' });

export const SyncJoined = z
  .object({
    client_id: z.string(),
    device_id: z.string(),
    sign_in_url: z.string().meta({ description: 'Opens the joined business in this UI (one-time).' }),
  })
  .meta({ id: 'SyncJoined' });

export type SyncJoined = z.infer<typeof SyncJoined>;
export type SyncStatus = z.infer<typeof SyncStatus>;
export type SyncRound = z.infer<typeof SyncRound>;
export type SyncPairing = z.infer<typeof SyncPairing>;
export type SyncDevice = z.infer<typeof SyncDevice>;
export type SyncConflict = z.infer<typeof SyncConflict>;
export type SyncPushResponse = z.infer<typeof SyncPushResponse>;
export type SyncPullResponse = z.infer<typeof SyncPullResponse>;
export type SyncJoinResponse = z.infer<typeof SyncJoinResponse>;
export type SyncSnapshotResponse = z.infer<typeof SyncSnapshotResponse>;

/** The signing secrets of an endpoint its owner hands to the hub (docs/sync.md, "Webhooks delivered by the hub"). */
export const SyncWebhookSecrets = z
  .object({
    secret: z.string().min(8).max(200),
    previous_secret: z.string().min(8).max(200).nullable(),
    previous_secret_expires_at: Timestamp.nullable(),
  })
  .meta({ id: 'SyncWebhookSecrets' });
export type SyncWebhookSecrets = z.infer<typeof SyncWebhookSecrets>;

/** An office install bringing its business onto a hosted hub (`sync pair --hub URL --admin-token …`). */
export const SyncUploadRequest = z
  .object({
    client_id: z.string().min(1).max(100),
    name: z.string().trim().min(1).max(100).optional(),
    number_floors: z
      .record(z.string().max(40), z.number().int().min(1))
      .meta({ description: 'Per number series, the first number the hub may lease (after those used).' }),
  })
  .meta({ id: 'SyncUploadRequest' });
export type SyncUploadRequest = z.infer<typeof SyncUploadRequest>;
