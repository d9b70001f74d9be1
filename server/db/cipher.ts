import { closeSync, openSync, readSync, statSync } from 'node:fs';
import SQLite from 'better-sqlite3-multiple-ciphers';

/**
 * The key that opens an encrypted database: a passphrase (the cipher derives the key from it: Argon2id
 * for AEGIS, PBKDF2 for SQLCipher 4, tens of milliseconds per open) or 32 raw bytes as 64 hex digits
 * (the desktop's generated key).
 */
export type DatabaseKey = { passphrase: string } | { hex: string };

const HEX_KEY = /^[0-9a-f]{64}$/i;

/** One rule for every source of a key (environment, key file, keychain): 64 hex digits are a raw key. */
export function parseDatabaseKey(text: string): DatabaseKey {
  const trimmed = text.trim();
  if (!trimmed) throw new Error('The database key is empty');
  return HEX_KEY.test(trimmed) ? { hex: trimmed.toLowerCase() } : { passphrase: trimmed };
}

function keyPragmaValue(key: DatabaseKey): string {
  const secret = 'hex' in key ? `x'${key.hex}'` : key.passphrase;
  return `'${secret.replaceAll("'", "''")}'`;
}

/**
 * How a file is encrypted. New files are AEGIS-256 (authenticated encryption on AES-NI: a page costs
 * about a tenth of SQLCipher's AES-CBC plus HMAC-SHA512, see docs/decisions.md); files encrypted
 * before keep SQLCipher 4's format and still open, tried second.
 */
export type Cipher = 'aegis-256' | 'sqlcipher-4';

const CIPHER_PRAGMAS: Record<Cipher, string[]> = {
  'aegis-256': [`cipher = 'aegis'`, `algorithm = 'aegis-256'`],
  'sqlcipher-4': [`cipher = 'sqlcipher'`, 'legacy = 4'],
};

const CIPHERS = Object.keys(CIPHER_PRAGMAS) as Cipher[];

/** The pragmas that open a file of that cipher with the key (none for a plain file). */
export function keyPragmas(key: DatabaseKey | null, cipher: Cipher = 'aegis-256'): string[] {
  return key ? [...CIPHER_PRAGMAS[cipher], `key = ${keyPragmaValue(key)}`] : [];
}

/** The pragmas that encrypt an open plain file (not in WAL mode) with the key, as new files are. */
export function rekeyPragmas(key: DatabaseKey): string[] {
  return [...CIPHER_PRAGMAS['aegis-256'], `rekey = ${keyPragmaValue(key)}`];
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

const readSchema = (sqlite: SQLite.Database) => sqlite.prepare('select count(*) from sqlite_schema').get();

/**
 * The cipher that opens an existing file with the key, found by trying each in turn on a read-only
 * connection: one that fails never checkpoints the WAL when it closes, so a wrong try writes
 * nothing. Null when none does (a wrong key, a plain or damaged file: the real open says which).
 */
function cipherOpening(file: string, key: DatabaseKey): Cipher | null {
  for (const cipher of CIPHERS) {
    let probe: SQLite.Database | undefined;
    try {
      probe = new SQLite(file, { readonly: true, fileMustExist: true });
      for (const pragma of keyPragmas(key, cipher)) probe.pragma(pragma);
      readSchema(probe);
      return cipher;
    } catch (error) {
      if ((error as { code?: string }).code !== 'SQLITE_NOTADB') return null;
    } finally {
      probe?.close();
    }
  }
  return null;
}

/** How the file is encrypted with the key; a file yet to be written gets the cipher of new files. */
export function fileCipher(file: string, key: DatabaseKey): Cipher {
  const written = (statSync(file, { throwIfNoEntry: false })?.size ?? 0) > 0;
  return (written && cipherOpening(file, key)) || CIPHERS[0]!;
}

/** The pragmas that open this file with the key (none without one), for any connection to it. */
export function fileKeyPragmas(file: string, key: DatabaseKey | null): string[] {
  return key ? keyPragmas(key, fileCipher(file, key)) : [];
}

/**
 * Opens a database file with the key (or none) and proves the key right by reading the schema:
 * SQLite only notices a wrong key at the first read.
 */
export function openSqliteFile(
  file: string,
  key: DatabaseKey | null,
  options: { readonly?: boolean; fileMustExist?: boolean } = {},
): SQLite.Database {
  const pragmas = fileKeyPragmas(file, key);
  const sqlite = new SQLite(file, options);
  try {
    for (const pragma of pragmas) sqlite.pragma(pragma);
    readSchema(sqlite);
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
