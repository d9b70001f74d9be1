/** Row types of sync's own tables (docs/sync.md). */

import type { Generated } from 'kysely';

export interface SyncNodeTable {
  id: string;
  last_hlc: string;
  clock_offset_ms: number;
}

export interface SyncSettingsTable {
  account_id: string;
  role: 'hub' | 'device';
  hub_url: string | null;
  /** SHA-256 of the hub's own certificate, pinned at pairing; null for a certificate an authority signed. */
  hub_fingerprint: string | null;
  device_id: string;
  device_code: string;
  credential: string | null;
  cursor: number;
  last_synced_at: string | null;
  last_attempt_at: string | null;
  last_error: string | null;
  created_at: string;
}

export interface DecisionsTable {
  /** `kind:record_id`: machines that see the same situation write one row. */
  id: string;
  account_id: string;
  kind: string;
  record_type: string;
  record_id: string;
  message: string;
  /** open and cleared merge by clock; resolved ranks above both (docs/sync.md). */
  status: 'open' | 'cleared' | 'resolved';
  detected_at: string;
  resolved_at: string | null;
}

export interface RecordChangesTable {
  id: Generated<number>;
  account_id: string;
  record_type: string;
  record_id: string;
  field: string;
  /** JSON texts of the values. */
  old_value: string | null;
  new_value: string | null;
  /** The actor (server/lib/actor.ts); `sync` for a pulled change that came without one, a host name before actors. */
  author: string;
  /** The node id of the install whose clock stamped the new value. */
  node: string;
  /** The name the hub knows the pulled change's device by; null for a change made here or before. */
  device_name: string | null;
  changed_at: string;
  replaced: number;
  restored_at: string | null;
}

export interface NumberBlocksTable {
  account_id: string;
  series: string;
  next_value: number;
  end_value: number;
}
