import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { parseDatabaseKey } from '../server/db/cipher';
import { startServer } from '../server/index';
import { bundledArgs } from './helpers/process-bundles';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-cli-backup-'));
const keyFile = path.join(dataDir, '..', `${path.basename(dataDir)}.key`);
writeFileSync(keyFile, 'a passphrase kept in a file\n', { mode: 0o600 });
afterAll(() => {
  rmSync(dataDir, { recursive: true, force: true });
  rmSync(keyFile, { force: true });
});

async function cli(...args: string[]) {
  return run(process.execPath, bundledArgs('cli', ...args, '--data-dir', dataDir), {
    cwd: root,
    env: { ...process.env, SHOPDESK_DB_KEY_FILE: keyFile },
  });
}

describe('CLI backup', () => {
  it('creates, lists, verifies and restores, refusing a restore under a running server', async () => {
    const { stdout: created } = await cli('init', '--business', 'Pipe Pros', '--json');
    const { client_id } = JSON.parse(created);
    const backup = JSON.parse((await cli('backup', 'create', '--json')).stdout);
    expect(backup).toMatchObject({ object: 'backup', reason: 'manual', result: 'verified', encrypted: true });

    await cli('init', '--business', 'Second Shop', '--json');
    const listed = JSON.parse((await cli('backup', 'list', '--json')).stdout);
    expect(listed.status).toMatchObject({ health: 'ok', encrypted: true });
    expect(listed.data.map((b: { id: string }) => b.id)).toEqual([backup.id]);
    expect(JSON.parse((await cli('backup', 'verify', backup.id, '--json')).stdout).result).toBe('verified');

    const server = await startServer({
      dataDir,
      port: 0,
      key: parseDatabaseKey('a passphrase kept in a file'),
      backups: { schedule: false },
    });
    try {
      const refused = await cli('backup', 'restore', backup.id).catch((error) => error);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`A server (pid ${process.pid}) is running on this data folder`);
    } finally {
      await server.close();
    }

    const restored = JSON.parse((await cli('backup', 'restore', backup.id, '--json')).stdout);
    expect(restored.restored.id).toBe(backup.id);
    expect(restored.safety_copy.tables.accounts).toBe(2);
    const accounts = JSON.parse((await cli('accounts', '--json')).stdout);
    expect(accounts.map((a: { client_id: string }) => a.client_id)).toEqual([client_id]);
    // Eight processes and key derivations: a loaded two-core machine needs more than a minute.
  }, 180_000);
});
