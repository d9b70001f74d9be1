import { randomBytes } from 'node:crypto';
import type { Pool } from 'pg';

/**
 * A key every process of the hosted hub shares (the table is in pg-schema.ts): the first process
 * to ask makes it, the others read that one, so a request signed by one process checks on another.
 */
export async function pgHubSecret(pool: Pool, name: string): Promise<Uint8Array> {
  await pool.query('INSERT INTO hub_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING', [
    name,
    randomBytes(32).toString('base64url'),
  ]);
  const { rows } = await pool.query<{ value: string }>('SELECT value FROM hub_secrets WHERE name = $1', [
    name,
  ]);
  return Buffer.from(rows[0]!.value, 'base64url');
}
