import { randomBytes } from 'node:crypto';
import type SQLite from 'better-sqlite3-multiple-ciphers';
import { replaceGeneratedTriggers } from '../db/generated-triggers';
import { defineChangeActor, installHistoryTriggers } from './history';
import { Hlc } from './hlc';
import { notSent, type SyncedTable } from './synced-table';
import { SYNCED_TABLES } from './tables';

/**
 * Change capture: triggers on every synced table write each change into sync_outbox inside the
 * writer's own transaction, so the API, the UI, the CLI and migrations are all caught and a
 * change can neither be lost nor sent for a write that rolled back. Triggers are generated from
 * the live schema at every open (a migration that adds a column is captured without more work)
 * and capture only accounts that sync (a row in sync_settings).
 */
export interface Capture {
  readonly hlc: Hlc;
  /**
   * Gives this install a node id of its own. A folder that joins a hub may be a copy of another
   * install (a restored backup, a cloned disk); two replicas with one node id would both deliver
   * the same webhooks and tie each other's clocks.
   */
  renewNode(): void;
  /** Wall time the clock reads, in ms; the server passes its own clock so tests can skew it. */
  setWallClock(now: () => number): void;
  /** The hub's time minus ours, measured at each exchange. */
  setOffset(ms: number): void;
  offset(): number;
  /** Runs `fn` with capture off: rows written while applying the hub's changes are not sent back. */
  applying<T>(fn: () => T): T;
  /**
   * Defines the capture's functions on another connection to the same file (a customer import
   * writes on one of its own): its writes then tick this clock and are captured as this one's.
   */
  attach(other: SQLite.Database): void;
}

export function installCapture(sqlite: SQLite.Database): Capture {
  const nodeRow = sqlite.prepare('SELECT id, last_hlc, clock_offset_ms FROM sync_node').get() as {
    id: string;
    last_hlc: string;
    clock_offset_ms: number;
  };
  const pending = sqlite.prepare('SELECT max(hlc) AS hlc FROM sync_outbox').get() as { hlc: string | null };
  const hlc = new Hlc(nodeRow.id, nodeRow.last_hlc);
  if (pending.hlc) hlc.observe(pending.hlc);
  let wall = () => Date.now();
  let offset = nodeRow.clock_offset_ms;
  let applying = false;

  const define = (connection: SQLite.Database) => {
    connection.function('sync_tick', { deterministic: false }, () => hlc.tick(wall() + offset));
    connection.function('sync_applying', { deterministic: false }, () => (applying ? 1 : 0));
  };
  define(sqlite);
  installTriggers(sqlite);
  installHistoryTriggers(sqlite);

  return {
    hlc,
    renewNode: () => {
      hlc.node = randomBytes(6).toString('hex');
      sqlite.prepare('UPDATE sync_node SET id = ?').run(hlc.node);
    },
    setWallClock: (now) => {
      wall = now;
    },
    setOffset: (ms) => {
      offset = ms;
    },
    offset: () => offset,
    attach: (other) => {
      define(other);
      defineChangeActor(other);
    },
    applying: (fn) => {
      applying = true;
      try {
        return fn();
      } finally {
        applying = false;
      }
    },
  };
}

/**
 * Defines capture's functions on a connection that writes only device-local rows and columns
 * (webhook delivery's thread): they pass the triggers' gates, and a write that would be captured
 * fails instead of ticking a second copy of this node's clock. Synced writes stay on the
 * server's own connection.
 */
export function attachWithoutCapture(other: SQLite.Database): void {
  other.function('sync_applying', { deterministic: false }, () => 0);
  other.function('sync_tick', { deterministic: false }, () => {
    throw new Error('This connection may not write synced data (sync/capture.ts)');
  });
  defineChangeActor(other);
}

/** Columns a table sends: all of its live columns but its device-local and derived ones. */
export function sentColumns(sqlite: SQLite.Database, table: SyncedTable): string[] {
  const skip = notSent(table);
  const columns = sqlite.prepare(`PRAGMA table_info(${table.name})`).all() as Array<{ name: string }>;
  return columns.map((c) => c.name).filter((name) => !skip.has(name));
}

function triggersFor(table: SyncedTable, columns: string[]): Record<string, string> {
  const name = table.name;
  const object = (r: string) => `json_object(${columns.map((c) => `'${c}', ${r}.${c}`).join(', ')})`;
  const key = (r: string) => `json_array(${table.pk.map((c) => `${r}.${c}`).join(', ')})`;
  const gate = (r: string) =>
    `sync_applying() = 0 AND EXISTS (SELECT 1 FROM sync_settings WHERE account_id = ${table.account(r)})`;
  const changed = columns.map((c) => `NEW.${c} IS NOT OLD.${c}`).join(' OR ');
  const changedList = `rtrim(${columns.map((c) => `CASE WHEN NEW.${c} IS NOT OLD.${c} THEN '${c},' ELSE '' END`).join(' || ')}, ',')`;
  const sameKey = table.pk.map((c) => `NEW.${c} IS OLD.${c}`).join(' AND ');
  const insert = (r: string, op: string, vals: string, list: string) =>
    `INSERT INTO sync_outbox (account_id, tbl, pk, op, vals, changed, hlc, actor) VALUES (${table.account(r)}, '${name}', ${key(r)}, '${op}', ${vals}, ${list}, sync_tick(), change_actor());`;
  return {
    [`sync_capture_${name}_insert`]: `CREATE TRIGGER sync_capture_${name}_insert AFTER INSERT ON ${name} WHEN ${gate('NEW')} BEGIN ${insert('NEW', 'insert', object('NEW'), 'NULL')} END`,
    [`sync_capture_${name}_update`]: `CREATE TRIGGER sync_capture_${name}_update AFTER UPDATE ON ${name} WHEN ${gate('NEW')} AND (${sameKey}) AND (${changed}) BEGIN ${insert('NEW', 'update', object('NEW'), changedList)} END`,
    // A changed key is a new row: the old key is deleted and the new one inserted whole.
    [`sync_capture_${name}_rekey`]: `CREATE TRIGGER sync_capture_${name}_rekey AFTER UPDATE ON ${name} WHEN ${gate('NEW')} AND NOT (${sameKey}) BEGIN ${insert('OLD', 'delete', 'NULL', 'NULL')} ${insert('NEW', 'insert', object('NEW'), 'NULL')} END`,
    [`sync_capture_${name}_delete`]: `CREATE TRIGGER sync_capture_${name}_delete AFTER DELETE ON ${name} WHEN ${gate('OLD')} BEGIN ${insert('OLD', 'delete', 'NULL', 'NULL')} END`,
  };
}

/**
 * Puts every existing row of an account into the outbox with the empty clock, in the transaction
 * that starts its sync: the hub learns the business as it stood, and any later edit beats it.
 */
export function captureBaseline(sqlite: SQLite.Database, accountId: string): number {
  let rows = 0;
  for (const table of SYNCED_TABLES) {
    const columns = sentColumns(sqlite, table);
    rows += sqlite
      .prepare(
        `INSERT INTO sync_outbox (account_id, tbl, pk, op, vals, changed, hlc)
         SELECT ?, '${table.name}', json_array(${table.pk.map((c) => `R.${c}`).join(', ')}), 'insert',
           json_object(${columns.map((c) => `'${c}', R.${c}`).join(', ')}), NULL, ''
         FROM ${table.name} R WHERE ${table.account('R')} = ?`,
      )
      .run(accountId, accountId).changes;
  }
  return rows;
}

/** Creates or replaces the capture triggers whose text differs from what the schema needs. */
function installTriggers(sqlite: SQLite.Database): void {
  const wanted = new Map<string, string>();
  for (const table of SYNCED_TABLES) {
    for (const [name, text] of Object.entries(triggersFor(table, sentColumns(sqlite, table))))
      wanted.set(name, text);
  }
  replaceGeneratedTriggers(sqlite, 'sync_capture_', wanted);
}
