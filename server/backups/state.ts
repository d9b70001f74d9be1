import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { Timestamp } from '../../shared/schemas/common';
import { writeFileAtomically } from '../lib/durable-files';

/**
 * The backup settings and the outcome of the last attempt live in the data folder beside the database,
 * not in it: a restore must not roll them back, and a failure to reach the backups folder (an unplugged
 * drive) must still be recorded somewhere the dashboard reads.
 */
const BackupState = z.object({
  /** The folder the owner chose; null keeps the default, <data folder>/backups. */
  folder: z.string().nullable().default(null),
  last_success_at: Timestamp.nullable().default(null),
  last_attempt_at: Timestamp.nullable().default(null),
  last_error: z.string().nullable().default(null),
  /** The last restore: when it happened, and which backup (of when) the data came back from. */
  last_restore: z
    .object({ restored_at: Timestamp, backup_id: z.string(), backup_created_at: Timestamp })
    .nullable()
    .default(null),
});
export type BackupState = z.infer<typeof BackupState>;

const stateFile = (dataDir: string) => path.join(dataDir, 'backup-state.json');

export function readBackupState(dataDir: string): BackupState {
  const file = stateFile(dataDir);
  if (!existsSync(file)) return BackupState.parse({});
  const parsed = BackupState.safeParse(JSON.parse(readFileSync(file, 'utf8')));
  return parsed.success ? parsed.data : BackupState.parse({});
}

export function updateBackupState(dataDir: string, change: Partial<BackupState>): BackupState {
  const next = { ...readBackupState(dataDir), ...change };
  writeFileAtomically(stateFile(dataDir), `${JSON.stringify(next, null, 2)}\n`);
  return next;
}
