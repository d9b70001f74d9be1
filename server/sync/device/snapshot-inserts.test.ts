import SQLite from 'better-sqlite3-multiple-ciphers';
import { afterAll, describe, expect, it } from 'vitest';
import type { SyncedTable } from '../synced-table';
import { LocalState } from './local-state';
import { SnapshotInserts } from './snapshot-inserts';

/**
 * Rows of one table whose values list their columns in other orders, leave some out or carry
 * columns this device does not have each go in with their own values, the table's defaults for
 * what they leave out and the derived figures the loader gives.
 */
const sqlite = new SQLite(':memory:');
afterAll(() => sqlite.close());
sqlite.exec(`CREATE TABLE items (
  id TEXT PRIMARY KEY,
  name TEXT NOT NULL,
  note TEXT,
  qty INTEGER NOT NULL,
  total_cents INTEGER NOT NULL
)`);
const table = { name: 'items', pk: ['id'] } as unknown as SyncedTable;

describe('a first sync binding snapshot rows', () => {
  it('puts each row in by its own keys, with defaults and derived figures', () => {
    const inserts = new SnapshotInserts(sqlite, new LocalState(sqlite));
    const rows: Array<Record<string, unknown>> = [
      ...Array.from({ length: 60 }, (_, i) => ({
        id: `a${String(i).padStart(2, '0')}`,
        name: `A${i}`,
        qty: i,
      })),
      { qty: 7, id: 'b1', name: 'B', note: 'reordered' },
      { id: 'b2', name: 'C', from_a_newer_schema: 'ignored', note: { nested: true } },
      { id: 'b3', name: 'D', qty: 2, note: null, total_cents: 99 },
    ];
    for (const values of rows) {
      const shape = inserts.shapeOf(table, values, ['total_cents']);
      inserts.add(shape, values, { total_cents: Number(values.qty ?? 0) * 100 });
    }
    inserts.flush();
    const stored = sqlite.prepare('SELECT * FROM items ORDER BY id').all();
    expect(stored).toHaveLength(63);
    expect(stored[0]).toEqual({ id: 'a00', name: 'A0', note: null, qty: 0, total_cents: 0 });
    expect(stored[59]).toEqual({ id: 'a59', name: 'A59', note: null, qty: 59, total_cents: 5900 });
    expect(stored.slice(60)).toEqual([
      { id: 'b1', name: 'B', note: 'reordered', qty: 7, total_cents: 700 },
      { id: 'b2', name: 'C', note: '{"nested":true}', qty: 0, total_cents: 0 },
      { id: 'b3', name: 'D', note: null, qty: 2, total_cents: 200 },
    ]);
  });
});
