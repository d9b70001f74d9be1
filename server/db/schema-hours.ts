/** Table of migration 0024: hours worked. */

export type TimeEntryStatus = 'kept' | 'deleted';

export interface TimeEntriesTable {
  id: string;
  account_id: string;
  member_id: string;
  job_id: string | null;
  started_at: string;
  /** null while the member is clocked in. */
  ended_at: string | null;
  /** office: typed by the owner or office; clock: clocked in and out. */
  source: 'office' | 'clock';
  note: string | null;
  status: TimeEntryStatus;
  created_at: string;
  updated_at: string;
}
