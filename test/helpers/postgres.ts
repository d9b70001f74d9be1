import pg from 'pg';
import { afterAll, beforeAll } from 'vitest';
import { startThrowawayPostgres, type ThrowawayPostgres } from '../../bench/postgres';
import { migratePgHub } from '../../server/sync/hub/pg-schema';

export type TestPostgres = ThrowawayPostgres;
export const startTestPostgres = (): Promise<TestPostgres> => startThrowawayPostgres();

/**
 * A throwaway cluster for the enclosing test file or describe block, with the hub's tables and one
 * pool on it: what a test of the hub on PostgreSQL needs. Call it where beforeAll may be called.
 */
export function startPgHubPoolForSuite(): () => pg.Pool {
  let postgres: TestPostgres | undefined;
  let pool: pg.Pool | undefined;
  beforeAll(async () => {
    postgres = await startTestPostgres();
    pool = new pg.Pool({ connectionString: postgres.url, max: 4 });
    await migratePgHub(pool);
  });
  afterAll(async () => {
    await pool?.end();
    await postgres?.stop();
  });
  return () => pool!;
}
