import { CLIENT_ACTION_RANKS } from './status-ranks';
import type { SyncedTable } from './synced-table';

const ownAccount = (r: string) => `${r}.account_id`;

/**
 * The crew's phone (migrations 0033-0034, docs/crew.md "The phone"): actions and photos are
 * written by whatever served the phone (the hosted hub while every owner computer is off, or an
 * install) and applied by any install; an action's status merges like a client action's.
 */
export const CREW_TABLES: SyncedTable[] = [
  {
    name: 'crew_actions',
    pk: ['id'],
    account: ownAccount,
    refs: { member_id: 'team_members' },
    ranks: { status: CLIENT_ACTION_RANKS },
    writable: [
      'id',
      'account_id',
      'member_id',
      'session_id',
      'kind',
      'job_id',
      'payload',
      'done_at',
      'created_at',
      'status',
      'outcome',
      'applied_at',
    ],
    parents: { member_id: ['team_members'], job_id: ['jobs'] },
  },
  {
    name: 'job_photos',
    pk: ['id'],
    account: ownAccount,
    refs: { member_id: 'team_members' },
    writable: ['id', 'account_id', 'job_id', 'member_id', 'content_type', 'size_bytes', 'data', 'created_at'],
    parents: { job_id: ['jobs'], member_id: ['team_members'] },
  },
];
