import type SQLite from 'better-sqlite3-multiple-ciphers';
import { replaceGeneratedTriggers } from '../db/generated-triggers';
import { currentActor } from '../lib/actor';
import type { RowState } from './merge';

/**
 * Each record's history (docs/sync.md, "Decisions and history"): one `record_changes` entry per
 * changed field of a customer, invoice, quote or job. Edits made on this install are written by
 * triggers (every write path, the CLI's too); values a pull changes are written by the applier,
 * which marks as replaced a value typed here that another install's value overwrote.
 */

/** The fields a history follows, per table; `status` is shown but never put back. */
export const TRACKED_FIELDS: Record<string, string[]> = {
  customers: ['name', 'email', 'phone', 'address'],
  invoices: ['customer_id', 'issue_date', 'due_date', 'notes', 'status'],
  quotes: ['customer_id', 'issue_date', 'valid_until', 'notes', 'status'],
  jobs: [
    'customer_id',
    'title',
    'scheduled_start',
    'scheduled_end',
    'address',
    'price_cents',
    'notes',
    'status',
  ],
};

/** The node id inside a clock (`ms.counter.node`). */
export function nodeOf(clock: string | undefined): string {
  return clock?.split('.')[2] ?? '';
}

/**
 * The function the history and capture triggers name a change's actor with: it reads the actor of
 * the work whose statement fired them (server/lib/actor.ts), so concurrent requests sharing the
 * one connection each get their own.
 */
export function defineChangeActor(sqlite: SQLite.Database): void {
  sqlite.function('change_actor', { deterministic: false }, currentActor);
}

/** Creates (or replaces, when the tracked fields changed) the triggers that record local edits. */
export function installHistoryTriggers(sqlite: SQLite.Database): void {
  defineChangeActor(sqlite);
  const wanted = new Map<string, string>();
  for (const [table, fields] of Object.entries(TRACKED_FIELDS)) {
    const changes = fields
      .map(
        (f) =>
          `SELECT '${f}' AS field, json_quote(OLD.${f}) AS old_value, json_quote(NEW.${f}) AS new_value WHERE NEW.${f} IS NOT OLD.${f}`,
      )
      .join(' UNION ALL ');
    const name = `record_history_${table}`;
    wanted.set(
      name,
      `CREATE TRIGGER ${name} AFTER UPDATE ON ${table} WHEN sync_applying() = 0 AND NEW.id IS OLD.id BEGIN
        INSERT INTO record_changes (account_id, record_type, record_id, field, old_value, new_value, author, node, changed_at)
        SELECT NEW.account_id, '${table}', NEW.id, c.field, c.old_value, c.new_value, change_actor(),
          (SELECT id FROM sync_node), NEW.updated_at FROM (${changes}) c;
      END`,
    );
  }
  replaceGeneratedTriggers(sqlite, 'record_history_', wanted);
}

/**
 * Writes the entries of the tracked values a pulled state is about to change in an existing row.
 * `ownNode`: this install's node id; a value it stamped and another install's value overwrote is
 * a local edit the clock rule replaced.
 */
export function recordPulledChanges(
  sqlite: SQLite.Database,
  entry: {
    table: string;
    accountId: string;
    id: string;
    before: Record<string, unknown>;
    base: RowState | undefined;
    incoming: RowState;
    columns: string[];
    ownNode: string;
    now: string;
  },
): void {
  const fields = TRACKED_FIELDS[entry.table];
  if (!fields) return;
  const insert = sqlite.prepare(
    `INSERT INTO record_changes (account_id, record_type, record_id, field, old_value, new_value, author, node, device_name, changed_at, replaced)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  for (const field of entry.columns) {
    if (!fields.includes(field)) continue;
    const old = entry.before[field] ?? null;
    const value = entry.incoming.v[field] ?? null;
    if (old === value) continue;
    const writer = nodeOf(entry.incoming.c[field]);
    const replaced = nodeOf(entry.base?.c[field]) === entry.ownNode && writer !== entry.ownNode;
    // A change from a peer that predates actors comes without one: it shows as before, by sync.
    const who = entry.incoming.a?.[field];
    insert.run(
      entry.accountId,
      entry.table,
      entry.id,
      field,
      JSON.stringify(old),
      JSON.stringify(value),
      who?.by ?? 'sync',
      writer,
      who?.on ?? null,
      entry.now,
      replaced ? 1 : 0,
    );
  }
}
