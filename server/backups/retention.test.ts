import { describe, expect, it } from 'vitest';
import type { Backup, BackupReason } from '../../shared/schemas/backup';
import { backupsToDelete } from './retention';

function backup(
  createdAt: string,
  reason: BackupReason = 'scheduled',
  result: Backup['result'] = 'verified',
): Backup {
  return {
    id: createdAt,
    object: 'backup',
    created_at: createdAt,
    reason,
    file: `/backups/${createdAt}.sqlite`,
    size_bytes: 1,
    encrypted: true,
    result,
    verified_at: createdAt,
    tables: {},
    error: null,
  };
}

function daily(from: string, days: number): Backup[] {
  const start = new Date(from).getTime();
  return Array.from({ length: days }, (_, day) =>
    backup(new Date(start + day * 86_400_000).toISOString().replace('.000Z', 'Z')),
  );
}

const keptDays = (all: Backup[], now: string) => {
  const gone = new Set(backupsToDelete(all, new Date(now)).map((b) => b.id));
  return all
    .filter((b) => !gone.has(b.id))
    .map((b) => b.created_at.slice(0, 10))
    .reverse();
};

describe('retention: 7 daily, 4 weekly, 12 monthly', () => {
  it('keeps the last 7 days, the last 4 ISO weeks’ newest and the last 12 months’ newest', () => {
    const all = daily('2026-01-01T02:00:00Z', 400);
    expect(keptDays(all, '2027-02-04T03:00:00Z')).toEqual([
      '2027-02-04',
      '2027-02-03',
      '2027-02-02',
      '2027-02-01',
      '2027-01-31',
      '2027-01-30',
      '2027-01-29',
      // Sundays closing the two ISO weeks before the daily ones (the other two weeks are in the dailies).
      '2027-01-24',
      '2027-01-17',
      // Month ends: February's and January's newest are among the dailies; 12 months reach back to March.
      '2026-12-31',
      '2026-11-30',
      '2026-10-31',
      '2026-09-30',
      '2026-08-31',
      '2026-07-31',
      '2026-06-30',
      '2026-05-31',
      '2026-04-30',
      '2026-03-31',
    ]);
  });

  it('keeps everything from the last 24 hours, and safety copies for 30 days', () => {
    const all = [
      backup('2026-11-23T08:00:00Z', 'manual'),
      backup('2026-11-23T02:00:00Z'),
      backup('2026-11-10T02:00:00Z'),
      backup('2026-11-10T01:00:00Z', 'pre-migration'),
      backup('2026-10-01T02:00:00Z'),
      backup('2026-10-01T01:00:00Z', 'pre-restore'),
    ];
    const gone = backupsToDelete(all, new Date('2026-11-23T09:00:00Z')).map((b) => b.id);
    // The 23rd's first backup is not that day's newest but is under a day old; the pre-migration copy
    // is not its day's newest but is 13 days old; the pre-restore copy is 53 days old.
    expect(gone).toEqual(['2026-10-01T01:00:00Z']);
  });

  it('counts failed backups for nothing and lets them go after 30 days', () => {
    const all = [
      backup('2026-11-20T02:00:00Z', 'scheduled', 'failed'),
      backup('2026-10-01T02:00:00Z', 'scheduled', 'failed'),
    ];
    expect(backupsToDelete(all, new Date('2026-11-23T09:00:00Z')).map((b) => b.id)).toEqual([
      '2026-10-01T02:00:00Z',
    ]);
  });
});
