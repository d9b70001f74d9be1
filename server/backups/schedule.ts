import type { Backup } from '../../shared/schemas/backup';
import type { BackgroundWork } from '../lib/background-work';
import { startPeriodicJob } from '../lib/periodic-job';
import type { Backups } from './backups';

export interface BackupSchedule extends BackgroundWork {
  /** Backs up if the daily backup is due; a failure is recorded (the dashboard shows it), not thrown. */
  runDue(): Promise<Backup | null>;
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
  const job = startPeriodicJob(
    'scheduled backup',
    async () => {
      if (!backups.isDue()) return null;
      try {
        return await backups.create('scheduled');
      } catch (error) {
        onError(error as Error);
        return null;
      }
    },
    { firstDelayMs: 0, intervalMs: checkEveryMs },
  );
  return { runDue: job.runNow, pause: job.pause, resume: job.resume, stop: job.stop };
}
