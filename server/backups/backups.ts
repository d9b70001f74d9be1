import { accessSync, constants, mkdirSync, renameSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Backup, BackupReason, BackupStatus } from '../../shared/schemas/backup';
import { type DatabaseKey, fileKeyPragmas } from '../db/cipher';
import { databaseFile } from '../db/database';
import { encryptInPlace, sameContent } from '../db/encrypt-in-place';
import { runFileTask } from '../db/file-worker';
import { type Clock, toIso } from '../lib/clock';
import { syncFile } from '../lib/durable-files';
import { ApiError, notFound, validationError } from '../lib/errors';
import {
  backupFile,
  backupId,
  fileSize,
  listBackups,
  PARTIAL_SUFFIX,
  partialFiles,
  readBackup,
  removeBackup,
  writeManifest,
} from './catalog';
import { backupsToDelete, DEFAULT_RETENTION, type RetentionRule } from './retention';
import { readBackupState, updateBackupState } from './state';

const BACKUP_INTERVAL_MS = 24 * 60 * 60 * 1000;
/** A backup a little late (the machine slept through the hour) is not yet worth a warning. */
const OVERDUE_GRACE_MS = 2 * 60 * 60 * 1000;

export interface BackupsOptions {
  dataDir: string;
  key: DatabaseKey | null;
  clock: Clock;
  retention?: RetentionRule;
}

/** The tables every Shopdesk database has: a file without them is not a backup of one. */
const REQUIRED_TABLES = ['kysely_migration', 'accounts'];

/**
 * Backups of one data folder's database: written while the server serves (a consistent snapshot on
 * a worker thread), verified before they count, listed from their manifests, pruned by the
 * retention rule. Backups run one after another, never two at once.
 */
export class Backups {
  private queue: Promise<unknown> = Promise.resolve();
  private readonly retention: RetentionRule;

  constructor(private readonly options: BackupsOptions) {
    this.retention = options.retention ?? DEFAULT_RETENTION;
  }

  get dataDir(): string {
    return this.options.dataDir;
  }

  get key(): DatabaseKey | null {
    return this.options.key;
  }

  folder(): string {
    return readBackupState(this.options.dataDir).folder ?? path.join(this.options.dataDir, 'backups');
  }

  /** Points backups at another folder (an external or synced drive); later backups go there. */
  setFolder(folder: string): void {
    if (!path.isAbsolute(folder))
      throw validationError('The backups folder must be an absolute path.', 'folder');
    try {
      mkdirSync(folder, { recursive: true });
      accessSync(folder, constants.W_OK);
    } catch (error) {
      throw new ApiError(
        400,
        'folder_unusable',
        `Shopdesk cannot write to ${folder}: ${(error as Error).message}`,
        {
          param: 'folder',
        },
      );
    }
    updateBackupState(this.options.dataDir, { folder });
  }

  list(): Backup[] {
    return listBackups(this.folder());
  }

  find(id: string): Backup {
    const backup = readBackup(this.folder(), id);
    if (!backup) throw notFound(`No backup ${id} in ${this.folder()}.`);
    return backup;
  }

  status(): BackupStatus {
    const state = readBackupState(this.options.dataDir);
    const now = this.options.clock.now().getTime();
    const lastSuccess = state.last_success_at ? new Date(state.last_success_at).getTime() : null;
    const failed =
      state.last_error !== null &&
      state.last_attempt_at !== null &&
      (state.last_success_at === null || state.last_attempt_at > state.last_success_at);
    let health: BackupStatus['health'] = 'ok';
    if (failed) health = 'failed';
    else if (lastSuccess === null) health = 'never';
    else if (now - lastSuccess > BACKUP_INTERVAL_MS + OVERDUE_GRACE_MS) health = 'overdue';
    return {
      health,
      folder: this.folder(),
      last_success_at: state.last_success_at,
      last_attempt_at: state.last_attempt_at,
      last_error: failed ? state.last_error : null,
      next_due_at: toIso(new Date(lastSuccess === null ? now : lastSuccess + BACKUP_INTERVAL_MS)),
      encrypted: this.options.key !== null,
      last_restore: state.last_restore,
    };
  }

  /** Remembers a restore beside the database, where the restored data cannot roll it back. */
  recordRestore(restored: Backup): void {
    updateBackupState(this.options.dataDir, {
      last_restore: {
        restored_at: toIso(this.options.clock.now()),
        backup_id: restored.id,
        backup_created_at: restored.created_at,
      },
    });
  }

  /** Whether the daily backup is due: none yet, or the last good one is a day old. */
  isDue(): boolean {
    const { last_success_at } = readBackupState(this.options.dataDir);
    if (last_success_at === null) return true;
    return this.options.clock.now().getTime() - new Date(last_success_at).getTime() >= BACKUP_INTERVAL_MS;
  }

  create(reason: BackupReason): Promise<Backup> {
    const next = this.queue.then(() => this.write(reason));
    this.queue = next.catch(() => undefined);
    return next;
  }

  /** Resolves when the backups asked for so far have finished (whatever their outcome). */
  idle(): Promise<unknown> {
    return this.queue;
  }

  /**
   * Backups written before encryption was turned on hold the data in clear: encrypt them like the
   * database (copy, verify, swap), so turning encryption on leaves nothing readable behind.
   */
  async encryptPlainBackups(): Promise<void> {
    const { key } = this.options;
    if (!key) return;
    const folder = this.folder();
    for (const backup of this.list()) {
      if (backup.encrypted || backup.result === 'missing') continue;
      await encryptInPlace(backup.file, key);
      writeManifest(folder, { ...backup, encrypted: true, size_bytes: fileSize(backup.file) });
    }
  }

  /** Opens a backup again and checks it still holds what it held when it was written. */
  async verify(id: string): Promise<Backup> {
    const backup = this.find(id);
    if (backup.result === 'missing') return backup;
    const now = toIso(this.options.clock.now());
    let checked: Backup;
    try {
      const found = await runFileTask({
        kind: 'verify',
        file: backup.file,
        keyPragmas: fileKeyPragmas(backup.file, backup.encrypted ? this.options.key : null),
      });
      const intact = sameContent({ integrity: 'ok', tables: backup.tables }, found);
      checked = {
        ...backup,
        result: intact ? 'verified' : 'failed',
        verified_at: now,
        error: intact ? null : `integrity_check: ${found.integrity}; rows differ from when it was written`,
      };
    } catch (error) {
      checked = { ...backup, result: 'failed', verified_at: now, error: (error as Error).message };
    }
    writeManifest(this.folder(), checked);
    return checked;
  }

  private async write(reason: BackupReason): Promise<Backup> {
    const { dataDir, clock, key } = this.options;
    const startedAt = clock.now();
    const folder = this.folder();
    const id = backupId(startedAt);
    const target = backupFile(folder, id);
    const partial = `${target}${PARTIAL_SUFFIX}`;
    try {
      mkdirSync(folder, { recursive: true });
      for (const leftover of partialFiles(folder)) rmSync(leftover, { force: true });
      // The snapshot keeps the database's cipher, so the same pragmas open it: no second probe.
      const keyPragmas = fileKeyPragmas(databaseFile(dataDir), key);
      await runFileTask({ kind: 'snapshot', source: databaseFile(dataDir), target: partial, keyPragmas });
      const found = await runFileTask({ kind: 'verify', file: partial, keyPragmas });
      if (found.integrity !== 'ok') throw new Error(`integrity_check of the new backup: ${found.integrity}`);
      const absent = REQUIRED_TABLES.filter((name) => !(name in found.tables));
      if (absent.length > 0) throw new Error(`The new backup lacks the tables ${absent.join(', ')}`);
      syncFile(partial);
      renameSync(partial, target);
      const backup: Backup = {
        id,
        object: 'backup',
        created_at: toIso(startedAt),
        reason,
        file: target,
        size_bytes: fileSize(target),
        encrypted: key !== null,
        result: 'verified',
        verified_at: toIso(clock.now()),
        tables: found.tables,
        error: null,
      };
      writeManifest(folder, backup);
      updateBackupState(dataDir, {
        last_attempt_at: backup.created_at,
        last_success_at: backup.created_at,
        last_error: null,
      });
      this.prune(folder);
      return backup;
    } catch (error) {
      // The folder may be gone altogether (an unplugged drive): then there is nothing to clean.
      try {
        rmSync(partial, { force: true });
      } catch {}
      const message = `Backup to ${folder} failed: ${(error as Error).message}`;
      updateBackupState(dataDir, { last_attempt_at: toIso(startedAt), last_error: message });
      throw new ApiError(500, 'backup_failed', message);
    }
  }

  private prune(folder: string): void {
    for (const old of backupsToDelete(listBackups(folder), this.options.clock.now(), this.retention))
      removeBackup(folder, old.id);
  }
}
