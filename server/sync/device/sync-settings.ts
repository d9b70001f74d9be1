import type { SyncConflict } from '../../../shared/schemas/sync';
import type { SyncSettingsTable } from '../../db/schema';
import type { LocalState } from './local-state';

/**
 * The engine's own rows (sync_settings, sync_node, open decisions) and what it reads of the
 * business (counters, accounts), through the raw driver like the rest of the device's side: the
 * cursor and the settings row are written in the same better-sqlite3 transaction as a pull's
 * apply or a baseline capture, which Kysely's asynchronous transactions cannot join. Run these
 * inside `exclusive` unless noted.
 */

export function readSettings(local: LocalState, accountId: string): SyncSettingsTable | undefined {
  return local.statement('SELECT * FROM sync_settings WHERE account_id = ?').get(accountId) as
    | SyncSettingsTable
    | undefined;
}

export function insertSettings(local: LocalState, settings: SyncSettingsTable): void {
  const columns = Object.keys(settings) as Array<keyof SyncSettingsTable>;
  local
    .statement(
      `INSERT INTO sync_settings (${columns.join(', ')}) VALUES (${columns.map(() => '?').join(', ')})`,
    )
    .run(...columns.map((c) => settings[c]));
}

export function updateSettings(
  local: LocalState,
  accountId: string,
  patch: Partial<Omit<SyncSettingsTable, 'account_id'>>,
): void {
  const columns = Object.keys(patch) as Array<keyof typeof patch>;
  if (columns.length === 0) return;
  local
    .statement(`UPDATE sync_settings SET ${columns.map((c) => `${c} = ?`).join(', ')} WHERE account_id = ?`)
    .run(...columns.map((c) => patch[c]), accountId);
}

/** The businesses of this folder that sync; a plain read, safe outside `exclusive`. */
export function syncedAccounts(local: LocalState): string[] {
  return local.statement('SELECT account_id FROM sync_settings').pluck().all() as string[];
}

/** Whether local changes wait for the hub; a plain read, safe outside `exclusive`. */
export function hasPending(local: LocalState, accountId: string): boolean {
  return (
    local.statement('SELECT 1 FROM sync_outbox WHERE account_id = ? LIMIT 1').get(accountId) !== undefined
  );
}

/** Pulled rows held back until a local record lets them in (device/apply.ts). */
export function hasDeferred(local: LocalState, accountId: string): boolean {
  return (
    local.statement('SELECT 1 FROM sync_deferred WHERE account_id = ? LIMIT 1').get(accountId) !== undefined
  );
}

export function openConflictCount(local: LocalState, accountId: string): number {
  return local
    .statement(`SELECT count(*) FROM decisions WHERE account_id = ? AND status = 'open'`)
    .pluck()
    .get(accountId) as number;
}

export function openConflicts(local: LocalState, accountId: string): SyncConflict[] {
  return local
    .statement(
      `SELECT id, kind, record_type, record_id, message, detected_at FROM decisions
       WHERE account_id = ? AND status = 'open' ORDER BY detected_at, id`,
    )
    .all(accountId) as SyncConflict[];
}

/** Marks an open decision resolved; false when there is no open one by that id. */
export function resolveDecision(local: LocalState, accountId: string, id: string, at: string): boolean {
  const result = local
    .statement(
      `UPDATE decisions SET status = 'resolved', resolved_at = ?
       WHERE account_id = ? AND id = ? AND status = 'open'`,
    )
    .run(at, accountId, id);
  return result.changes > 0;
}

/** The business's plain counters, by series: where number leases start from. */
export function counterValues(local: LocalState, accountId: string): Map<string, number> {
  const rows = local
    .statement('SELECT name, value FROM counters WHERE account_id = ?')
    .all(accountId) as Array<{
    name: string;
    value: number;
  }>;
  return new Map(rows.map((row) => [row.name, row.value]));
}

export function accountIds(local: LocalState): string[] {
  return local.statement('SELECT id FROM accounts').pluck().all() as string[];
}

/** Keeps the capture's clock across restarts. */
export function saveNodeClock(local: LocalState, lastHlc: string, offsetMs: number): void {
  local.statement('UPDATE sync_node SET last_hlc = ?, clock_offset_ms = ?').run(lastHlc, offsetMs);
}
