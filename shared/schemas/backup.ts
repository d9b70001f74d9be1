import { z } from 'zod';
import { Timestamp } from './common';

export const BackupReason = z.enum(['scheduled', 'manual', 'pre-migration', 'pre-restore']);
export type BackupReason = z.infer<typeof BackupReason>;

/** One backup file of the data folder's database, as its manifest beside it describes it. */
export const Backup = z
  .object({
    id: z.string().meta({ example: '20261123T020000123Z' }),
    object: z.literal('backup'),
    created_at: Timestamp,
    reason: BackupReason,
    file: z.string().meta({ description: 'Where the file is, for copying it by hand.' }),
    size_bytes: z.number().int(),
    encrypted: z.boolean(),
    result: z.enum(['verified', 'failed', 'missing']).meta({
      description:
        'verified: it opened, passed integrity_check and held the rows counted when it was written; ' +
        'failed: the last verification found a problem; missing: its file is gone.',
    }),
    verified_at: Timestamp,
    tables: z
      .record(z.string(), z.number().int())
      .meta({ description: 'Rows per table when it was written.' }),
    error: z.string().nullable(),
  })
  .meta({ id: 'Backup' });
export type Backup = z.infer<typeof Backup>;

export const BackupHealth = z.enum(['ok', 'failed', 'overdue', 'never']);
export type BackupHealth = z.infer<typeof BackupHealth>;

/** What the dashboard warns about and Settings > Backups shows at the top. */
export const BackupStatus = z
  .object({
    health: BackupHealth.meta({
      description:
        'ok: the last backup succeeded within the day; failed: the last attempt failed; ' +
        'overdue: none succeeded for more than a day; never: no backup yet.',
    }),
    folder: z.string(),
    last_success_at: Timestamp.nullable(),
    last_attempt_at: Timestamp.nullable(),
    last_error: z.string().nullable(),
    next_due_at: Timestamp,
    encrypted: z
      .boolean()
      .meta({ description: 'Whether the database and its backups are encrypted at rest.' }),
    last_restore: z
      .object({
        restored_at: Timestamp.meta({ description: 'When the restore replaced the data.' }),
        backup_id: z.string(),
        backup_created_at: Timestamp.meta({
          description: 'When that backup was taken: changes made after it are not in the data.',
        }),
      })
      .nullable()
      .meta({ description: 'The last restore of this data folder, null when it never was restored.' }),
  })
  .meta({ id: 'BackupStatus' });
export type BackupStatus = z.infer<typeof BackupStatus>;

export const BackupOverview = z
  .object({
    status: BackupStatus,
    data: z.array(Backup).meta({ description: 'Newest first.' }),
    managed_by: z.enum(['owner', 'operator']).meta({
      description:
        'owner: the data folder holds this business alone, and its owner chooses the folder and backs up here. operator: the folder holds several businesses and every backup holds them all; the operator chooses the folder and backs up with the CLI (shopdesk backup), and the portal only lists and verifies.',
    }),
  })
  .meta({ id: 'BackupOverview' });
export type BackupOverview = z.infer<typeof BackupOverview>;

export const BackupFolderUpdate = z
  .strictObject({
    folder: z.string().min(1).meta({
      description: 'An absolute path, e.g. an external or synced drive. Shopdesk creates it if needed.',
    }),
  })
  .meta({ id: 'BackupFolderUpdate' });
export type BackupFolderUpdate = z.infer<typeof BackupFolderUpdate>;

export const BackupIdParams = z.object({ backup_id: z.string() });

export const RestoreResult = z
  .object({
    restored: Backup,
    safety_copy: Backup.meta({
      description: 'The data as it was just before the restore, kept as a backup.',
    }),
  })
  .meta({ id: 'RestoreResult' });
export type RestoreResult = z.infer<typeof RestoreResult>;
