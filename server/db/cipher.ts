import { closeSync, openSync, readSync } from 'node:fs';
import SQLite from 'better-sqlite3-multiple-ciphers';

/**
 * The key that opens an encrypted database: a passphrase (SQLCipher derives the key from it with
 * PBKDF2, about 0.1 s per open) or 32 raw bytes as 64 hex digits (the desktop's generated key).
 */
export type DatabaseKey = { passphrase: string } | { hex: string };

const HEX_KEY = /^[0-9a-f]{64}$/i;

/** One rule for every source of a key (environment, key file, keychain): 64 hex digits are a raw key. */
export function parseDatabaseKey(text: string): DatabaseKey {
  const trimmed = text.trim();
  if (!trimmed) throw new Error('The database key is empty');
  return HEX_KEY.test(trimmed) ? { hex: trimmed.toLowerCase() } : { passphrase: trimmed };
}

/** The encryption is SQLCipher 4's format, so the files open with the sqlcipher tool as well. */
function keyPragmaValue(key: DatabaseKey): string {
  const secret = 'hex' in key ? `x'${key.hex}'` : key.passphrase;
  return `'${secret.replaceAll("'", "''")}'`;
}

const CIPHER_PRAGMAS = [`cipher = 'sqlcipher'`, 'legacy = 4'];

/** The pragmas that open a file with the key (none for a plain file), for this or another connection. */
export function keyPragmas(key: DatabaseKey | null): string[] {
  return key ? [...CIPHER_PRAGMAS, `key = ${keyPragmaValue(key)}`] : [];
}

/** The pragmas that encrypt an open plain file (not in WAL mode) with the key. */
export function rekeyPragmas(key: DatabaseKey): string[] {
  return [...CIPHER_PRAGMAS, `rekey = ${keyPragmaValue(key)}`];
}

const PLAIN_HEADER = 'SQLite format 3\0';

/** A plain SQLite file starts with its magic string; an encrypted one starts with random salt. */
export function isPlainDatabaseFile(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(PLAIN_HEADER.length);
    const read = readSync(fd, header, 0, header.length, 0);
    return read === 0 || header.toString('latin1') === PLAIN_HEADER;
  } finally {
    closeSync(fd);
  }
}

/** What the owner sees when a key is missing or wrong, instead of SQLite's "file is not a database". */
export class DatabaseKeyError extends Error {}

const SALT_BYTES = 16;

/**
 * Where SQLite's magic string or an encrypted file's random salt belongs, a zero-filled file (a disk
 * fault, a crash during a copy) has only zero bytes: no key can open it, so asking for one misleads.
 */
function headerIsZeroFilled(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const header = Buffer.alloc(SALT_BYTES);
    const read = readSync(fd, header, 0, header.length, 0);
    return read === SALT_BYTES && header.every((byte) => byte === 0);
  } finally {
    closeSync(fd);
  }
}

/** Classed as damaged by storageProblem, so every caller words it as the other damage. */
const zeroFilledError = () =>
  Object.assign(
    new Error('its first bytes are all zero, as a disk fault or an interrupted copy leaves a file'),
    {
      code: 'SQLITE_CORRUPT',
    },
  );

/**
 * Opens a database file with the key (or none) and proves the key right by reading the schema:
 * SQLite only notices a wrong key at the first read.
 */
export function openSqliteFile(
  file: string,
  key: DatabaseKey | null,
  options: { readonly?: boolean; fileMustExist?: boolean } = {},
): SQLite.Database {
  const sqlite = new SQLite(file, options);
  try {
    for (const pragma of keyPragmas(key)) sqlite.pragma(pragma);
    sqlite.prepare('select count(*) from sqlite_schema').get();
    return sqlite;
  } catch (error) {
    sqlite.close();
    if ((error as { code?: string }).code !== 'SQLITE_NOTADB') throw error;
    if (headerIsZeroFilled(file)) throw zeroFilledError();
    throw new DatabaseKeyError(
      key
        ? `${file} cannot be opened with this key: the key or passphrase is wrong, or the file is not a Shopdesk database.`
        : `${file} is encrypted: give its key (SHOPDESK_DB_KEY or SHOPDESK_DB_KEY_FILE, see docs/backups.md).`,
    );
  }
}
