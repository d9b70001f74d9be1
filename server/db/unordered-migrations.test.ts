import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openDatabaseFile } from './database';

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

describe('migrations numbered before the last one run', () => {
  it('runs once on a file that ran later numbers first (0025 after 0035)', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-unordered-'));
    folders.push(dataDir);
    const first = await openDatabaseFile(dataDir);
    // The file as an install that had every migration but 0025 left it.
    first.sqlite.exec(`DELETE FROM kysely_migration WHERE name = '0025_customer_figures_new_customers';
      DROP TRIGGER customer_figures_customer_insert;
      CREATE TRIGGER customer_figures_customer_insert AFTER INSERT ON customers BEGIN SELECT 1; END;`);
    await first.close();

    const reopened = await openDatabaseFile(dataDir);
    try {
      const trigger = reopened.sqlite
        .prepare("SELECT sql FROM sqlite_master WHERE name = 'customer_figures_customer_insert'")
        .get() as { sql: string };
      expect(trigger.sql).toContain('CASE WHEN EXISTS');
      const runs = reopened.sqlite
        .prepare(
          "SELECT count(*) AS n FROM kysely_migration WHERE name = '0025_customer_figures_new_customers'",
        )
        .get() as { n: number };
      expect(runs.n).toBe(1);
    } finally {
      await reopened.close();
    }
  });
});
