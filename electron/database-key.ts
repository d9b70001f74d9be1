import { existsSync, readFileSync } from 'node:fs';
import { writeFileAtomically } from '../server/lib/durable-files';

/** The part of Electron's safeStorage used here (the OS keychain: Keychain, DPAPI, libsecret/kwallet). */
export interface SafeStorageLike {
  isEncryptionAvailable(): boolean;
  encryptString(plainText: string): Buffer;
  decryptString(encrypted: Buffer): string;
}

export interface DatabaseKeyDeps {
  safeStorage: SafeStorageLike;
  /** Where the sealed key lives: <userData>/database-key.sealed. */
  file: string;
  /** 32 random bytes as 64 hex digits. */
  randomHex(): string;
}

export type DesktopDatabaseKey =
  | { state: 'ready'; hex: string }
  /** No keychain on this machine (a Linux desktop without a secret service): the data stays unencrypted. */
  | { state: 'unavailable'; reason: string };

const HEX_KEY = /^[0-9a-f]{64}$/;

/**
 * The desktop's database key: generated once, kept on disk only sealed by the OS keychain, so the data
 * folder and its backups on their own (a stolen disk, a lost backup drive) reveal nothing. The owner
 * can show it once in Settings > Backups to write it down: it is what opens the backups on a new machine.
 */
export function loadDatabaseKey(deps: DatabaseKeyDeps): DesktopDatabaseKey {
  const available = deps.safeStorage.isEncryptionAvailable();
  if (existsSync(deps.file)) {
    if (!available)
      throw new Error(
        'The database key is sealed by the system keychain, which is not available now. Unlock the keychain (or sign in to the desktop session) and start Shopdesk again.',
      );
    const hex = deps.safeStorage.decryptString(readFileSync(deps.file)).trim();
    if (!HEX_KEY.test(hex)) throw new Error(`${deps.file} does not hold a Shopdesk database key`);
    return { state: 'ready', hex };
  }
  if (!available)
    return {
      state: 'unavailable',
      reason: 'The system keychain is not available, so the database is stored unencrypted.',
    };
  const hex = deps.randomHex();
  writeFileAtomically(deps.file, deps.safeStorage.encryptString(hex), 0o600);
  return { state: 'ready', hex };
}
