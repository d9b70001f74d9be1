import { readFileSync } from 'node:fs';
import { type DatabaseKey, parseDatabaseKey } from './cipher';

/**
 * The headless server's and the CLI's database key: SHOPDESK_DB_KEY holds it, or SHOPDESK_DB_KEY_FILE
 * names a file holding it. Never a command-line flag, which `ps` shows to every user of the machine.
 * Neither set means the database is not encrypted.
 */
export function databaseKeyFromEnvironment(
  env: Readonly<Record<string, string | undefined>>,
): DatabaseKey | null {
  const inline = env.SHOPDESK_DB_KEY;
  const file = env.SHOPDESK_DB_KEY_FILE;
  if (inline && file) throw new Error('Set SHOPDESK_DB_KEY or SHOPDESK_DB_KEY_FILE, not both');
  if (inline) return parseDatabaseKey(inline);
  if (!file) return null;
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new Error(`SHOPDESK_DB_KEY_FILE ${file} cannot be read: ${(error as Error).message}`);
  }
  return parseDatabaseKey(text);
}
