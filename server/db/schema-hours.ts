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

export type CrewActionKind = 'on_my_way' | 'start' | 'complete' | 'clock_in' | 'clock_out';

/** What a crew member did on the phone (migration 0033), applied once by an install. */
export interface CrewActionsTable {
  id: string;
  account_id: string;
  member_id: string;
  /** The member session that sent it. */
  session_id: string;
  kind: CrewActionKind;
  job_id: string | null;
  /** JSON: the complete action's checklist, note, photo ids and sign-off; {} otherwise. */
  payload: string;
  /** When it was done on the phone (it may reach a server much later). */
  done_at: string;
  /** When a server recorded it. */
  created_at: string;
  status: 'pending' | 'refused' | 'applied';
  outcome: string | null;
  applied_at: string | null;
}

/** A photo taken at a visit (migration 0034), bytes included (base64). */
export interface JobPhotosTable {
  id: string;
  account_id: string;
  job_id: string;
  member_id: string | null;
  content_type: string;
  size_bytes: number;
  data: string;
  created_at: string;
}

/** The crew's tables, part of the Database (schema.ts). */
export interface CrewTables {
  time_entries: TimeEntriesTable;
  crew_actions: CrewActionsTable;
  job_photos: JobPhotosTable;
}
