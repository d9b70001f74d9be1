import { TIME_ENTRY_RANKS } from './status-ranks';
import type { SyncedTable } from './synced-table';

/** Hours worked (migration 0024): synced, so a clock-in on one install shows on every other. */
export const HOURS_TABLES: SyncedTable[] = [
  {
    name: 'time_entries',
    pk: ['id'],
    account: (r) => `${r}.account_id`,
    refs: { member_id: 'team_members' },
    // Deleted beats edited: an edit made elsewhere never brings a removed entry back.
    ranks: { status: TIME_ENTRY_RANKS },
    writable: [
      'id',
      'account_id',
      'member_id',
      'job_id',
      'started_at',
      'ended_at',
      'source',
      'note',
      'status',
      'created_at',
      'updated_at',
    ],
    parents: { member_id: ['team_members'], job_id: ['jobs'] },
  },
];
