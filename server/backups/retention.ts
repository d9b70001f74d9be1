import type { Backup } from '../../shared/schemas/backup';

export interface RetentionRule {
  daily: number;
  weekly: number;
  monthly: number;
}

export const DEFAULT_RETENTION: RetentionRule = { daily: 7, weekly: 4, monthly: 12 };

const DAY_MS = 24 * 60 * 60 * 1000;
/** Copies taken before a migration or a restore are the way back from that step: kept a month whatever else. */
const SAFETY_COPY_DAYS = 30;

const dayOf = (at: Date) => at.toISOString().slice(0, 10);
const monthOf = (at: Date) => at.toISOString().slice(0, 7);

/** The ISO week (Monday to Sunday, UTC) as "2026-W48". */
function weekOf(at: Date): string {
  const date = new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));
  const weekday = date.getUTCDay() || 7;
  date.setUTCDate(date.getUTCDate() + 4 - weekday);
  const yearStart = Date.UTC(date.getUTCFullYear(), 0, 1);
  const week = Math.ceil(((date.getTime() - yearStart) / DAY_MS + 1) / 7);
  return `${date.getUTCFullYear()}-W${String(week).padStart(2, '0')}`;
}

/** Keeps the newest backup of each of the `count` most recent periods that have one. */
function newestPerPeriod(backups: Backup[], count: number, period: (at: Date) => string): Set<string> {
  const kept = new Set<string>();
  const seen = new Set<string>();
  for (const backup of backups) {
    const key = period(new Date(backup.created_at));
    if (seen.has(key)) continue;
    if (seen.size === count) break;
    seen.add(key);
    kept.add(backup.id);
  }
  return kept;
}

/**
 * The backups the rule lets go, as restic's `forget --keep-daily 7 --keep-weekly 4 --keep-monthly 12`
 * does it: among verified backups, the newest of each of the last 7 days, 4 ISO weeks and 12 months
 * that have one are kept (UTC calendar). On top: everything from the last 24 hours, and safety copies
 * (before a migration or a restore) for 30 days. Backups that failed or lost their file count for
 * nothing and go after 30 days, long enough for the owner to have seen them listed.
 */
export function backupsToDelete(
  backups: Backup[],
  now: Date,
  rule: RetentionRule = DEFAULT_RETENTION,
): Backup[] {
  const newestFirst = [...backups].sort((a, b) => (a.created_at < b.created_at ? 1 : -1));
  const verified = newestFirst.filter((b) => b.result === 'verified');
  const kept = new Set([
    ...newestPerPeriod(verified, rule.daily, dayOf),
    ...newestPerPeriod(verified, rule.weekly, weekOf),
    ...newestPerPeriod(verified, rule.monthly, monthOf),
  ]);
  const ageDays = (b: Backup) => (now.getTime() - new Date(b.created_at).getTime()) / DAY_MS;
  return newestFirst.filter((backup) => {
    if (kept.has(backup.id) || ageDays(backup) < 1) return false;
    const safetyCopy = backup.reason === 'pre-migration' || backup.reason === 'pre-restore';
    if ((safetyCopy || backup.result !== 'verified') && ageDays(backup) < SAFETY_COPY_DAYS) return false;
    return true;
  });
}
