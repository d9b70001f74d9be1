import type { Backup } from '../../shared/schemas/backup';
import type { Backups } from './backups';

export interface BackupSchedule {
  /** Backs up if the daily backup is due; a failure is recorded (the dashboard shows it), not thrown. */
  runDue(): Promise<Backup | null>;
  stop(): Promise<void>;
}

const CHECK_EVERY_MS = 15 * 60 * 1000;

/**
 * The daily backup: checked at start (so a machine that was off at backup time catches up at once) and
 * every 15 minutes after, against the time of the last good backup rather than a wall-clock hour, which
 * a laptop asleep at 2 a.m. would miss every night.
 */
export function startBackupSchedule(
  backups: Backups,
  onError: (error: Error) => void,
  checkEveryMs = CHECK_EVERY_MS,
): BackupSchedule {
  let current: Promise<Backup | null> = Promise.resolve(null);
  const runDue = () => {
    current = current.then(async () => {
      if (!backups.isDue()) return null;
      try {
        return await backups.create('scheduled');
      } catch (error) {
        onError(error as Error);
        return null;
      }
    });
    return current;
  };
  const timer = setInterval(runDue, checkEveryMs);
  timer.unref();
  void runDue();
  return {
    runDue,
    stop: async () => {
      clearInterval(timer);
      await current;
    },
  };
}
