import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadDatabaseKey, type SafeStorageLike } from './database-key';

/** A keychain stand-in: "seals" by reversing and prefixing, so a test can tell sealed from clear. */
function fakeKeychain(available = true): SafeStorageLike {
  return {
    isEncryptionAvailable: () => available,
    encryptString: (text) => Buffer.from(`sealed:${[...text].reverse().join('')}`),
    decryptString: (data) => [...data.toString().replace(/^sealed:/, '')].reverse().join(''),
  };
}

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});
function keyFile(): string {
  const folder = mkdtempSync(path.join(tmpdir(), 'shopdesk-key-'));
  folders.push(folder);
  return path.join(folder, 'database-key.sealed');
}

const HEX = 'ab'.repeat(32);

describe('the desktop database key', () => {
  it('is generated once, kept only sealed by the keychain, and the same at every start', () => {
    const file = keyFile();
    const first = loadDatabaseKey({ safeStorage: fakeKeychain(), file, randomHex: () => HEX });
    expect(first).toEqual({ state: 'ready', hex: HEX });
    expect(readFileSync(file, 'utf8')).not.toContain(HEX);
    const again = loadDatabaseKey({ safeStorage: fakeKeychain(), file, randomHex: () => 'cd'.repeat(32) });
    expect(again).toEqual({ state: 'ready', hex: HEX });
  });

  it('leaves the data unencrypted on a machine without a keychain, and says so', () => {
    const result = loadDatabaseKey({
      safeStorage: fakeKeychain(false),
      file: keyFile(),
      randomHex: () => HEX,
    });
    expect(result.state).toBe('unavailable');
  });

  it('refuses to start when the keychain holding an existing key is locked', () => {
    const file = keyFile();
    loadDatabaseKey({ safeStorage: fakeKeychain(), file, randomHex: () => HEX });
    expect(() => loadDatabaseKey({ safeStorage: fakeKeychain(false), file, randomHex: () => HEX })).toThrow(
      /sealed by the system keychain, which is not available/,
    );
  });
});
