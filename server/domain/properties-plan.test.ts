import { rmSync } from 'node:fs';
import { Kysely, SqliteDialect } from 'kysely';
import { expect, it } from 'vitest';
import { openMigratedDatabase } from '../../test/helpers/migrated-database';
import type { Database } from '../db/schema';
import { placeFor } from './properties';

it("reads a customer's default place by the customer's index, with no sort step", async () => {
  const { dir, database } = await openMigratedDatabase('shopdesk-place-plan-');
  try {
    const statements: Array<{ sql: string; parameters: readonly unknown[] }> = [];
    const db = new Kysely<Database>({
      dialect: new SqliteDialect({ database: database.sqlite }),
      log: (event) => {
        if (event.level === 'query') statements.push(event.query);
      },
    });
    expect(await placeFor(db, 'acct_none', 'cus_none', undefined)).toBeNull();
    expect(statements).toHaveLength(1);
    const plan = database.sqlite
      .prepare(`EXPLAIN QUERY PLAN ${statements[0]!.sql}`)
      .all(...statements[0]!.parameters)
      .map((row) => (row as { detail: string }).detail);
    expect(plan).toEqual([expect.stringContaining('USING INDEX properties_customer (customer_id=?)')]);
  } finally {
    await database.close();
    rmSync(dir, { recursive: true, force: true });
  }
});
