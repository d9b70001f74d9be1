import { execFile, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, describe, expect, it } from 'vitest';
import { bundledArgs } from './helpers/process-bundles';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '..');
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-cli-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

async function cli(...args: string[]) {
  return run(process.execPath, bundledArgs('cli', ...args, '--data-dir', dataDir), {
    cwd: root,
  });
}

// Each step starts the CLI as a process: slow on a busy machine.
describe('CLI', { timeout: 90_000 }, () => {
  let account: { client_id: string; portal_key: string; v1_key: string };

  it('init --json prints exactly one JSON object with the account and its keys', async () => {
    const { stdout } = await cli(
      'init',
      '--business',
      'Pipe Pros',
      '--plan',
      'platform',
      '--api-plan',
      'essential',
      '--json',
    );
    account = JSON.parse(stdout);
    expect(Object.keys(account).sort()).toEqual(['client_id', 'portal_key', 'v1_key']);
    expect(account.client_id).toMatch(/^acct_/);
    expect(account.portal_key).toMatch(/^sd_portal_[0-9A-Za-z]{32}$/);
    expect(account.v1_key).toMatch(/^sd_live_[0-9A-Za-z]{32}$/);
  });

  it('creates, lists, rotates and revokes v1 keys', async () => {
    const created = JSON.parse((await cli('keys', 'create', '--scopes', 'read', '--json')).stdout);
    expect(created).toMatchObject({ scopes: ['read'], kind: 'v1' });
    expect(created.key).toMatch(/^sd_live_/);
    const rotated = JSON.parse((await cli('keys', 'rotate', '--key-id', created.id, '--json')).stdout);
    expect(rotated.key).not.toBe(created.key);
    expect(rotated.previous_secret_expires_at).toBeTruthy();
    const revoked = JSON.parse((await cli('keys', 'revoke', '--key-id', created.id, '--json')).stdout);
    expect(revoked.revoked_at).toBeTruthy();
    const listed = JSON.parse((await cli('keys', 'list', '--json')).stdout);
    expect(listed.map((k: { id: string }) => k.id)).toContain(created.id);
  });

  it('changes plans', async () => {
    const { stdout } = await cli('plan', '--plan', 'basic', '--api-plan', 'growth', '--json');
    expect(JSON.parse(stdout)).toEqual({ client_id: account.client_id, plan: 'basic', api_plan: 'growth' });
  });

  it('asks for --client-id once the folder holds two accounts, and explains bad input', async () => {
    await cli('init', '--business', 'Second Shop', '--json');
    await expect(cli('keys', 'list')).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--client-id'),
    });
    await expect(cli('plan', '--plan', 'gold', '--client-id', account.client_id)).rejects.toMatchObject({
      code: 2,
      stderr: expect.stringContaining('--plan must be one of basic, platform'),
    });
  });
});

describe('npm run serve', () => {
  it('prints the URL and a sign-in link, serves, and stops cleanly on SIGTERM', async () => {
    const serveDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-serve-'));
    const child = spawn(process.execPath, bundledArgs('serve', '--data-dir', serveDir, '--port', '0'), {
      cwd: root,
    });
    let output = '';
    child.stdout.on('data', (chunk) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      await new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error(`no sign-in link in: ${output}`)), 20_000);
        child.stdout.on('data', () => {
          if (/Sign in: \S+/.test(output)) {
            clearTimeout(timer);
            resolve();
          }
        });
      });
      const url = /running at (\S+)/.exec(output)![1]!;
      const signIn = /Sign in: (\S+)/.exec(output)![1]!;
      expect((await (await fetch(`${url}/health`)).json()).status).toBe('ok');
      // `cli sign-in` on the same folder links to this server's own address (its port was 0).
      const printed = await run(process.execPath, bundledArgs('cli', 'sign-in', '--data-dir', serveDir), {
        cwd: root,
      });
      expect(printed.stdout).toMatch(new RegExp(`^Sign in: ${url}/sign-in\\?token=\\S+\n$`));
      const response = await fetch(signIn, { redirect: 'manual' });
      expect(response.status).toBe(303);
      expect(response.headers.get('set-cookie')).toMatch(/^sd_session_[0-9a-f]{12}=.*HttpOnly/i);
      child.kill('SIGTERM');
      expect(await exited).toBe(0);
      expect(output).toContain('Stopped.');
    } finally {
      child.kill('SIGKILL');
      rmSync(serveDir, { recursive: true, force: true });
    }
  });
});
