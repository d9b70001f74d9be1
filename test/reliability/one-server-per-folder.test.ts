import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listAccounts } from '../../server/domain/accounts';
import { startServer } from '../../server/index';
import { startTestServer } from '../helpers/server';
import { cli, serve } from './processes';

const folders: string[] = [];
function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-lock-'));
  folders.push(dir);
  return dir;
}
afterAll(() => {
  for (const dir of folders) rmSync(dir, { recursive: true, force: true });
});

describe('one server per data folder', () => {
  it('refuses a second server in words that name the first one’s address', async () => {
    const dataDir = folder();
    const first = await startTestServer({ dataDir });
    try {
      await expect(startServer({ dataDir, host: '127.0.0.1', port: 0 })).rejects.toThrow(
        `Shopdesk is already running on this folder at ${first.url}`,
      );
      // The refused start touched nothing: the first server still serves.
      expect((await first.request('GET', '/health')).status).toBe(200);
    } finally {
      await first.stop();
    }
    const next = await startTestServer({ dataDir });
    await next.stop();
  });

  it('headless mode prints one line, not a stack trace, and the CLI still works beside the server', async () => {
    const dataDir = folder();
    const first = await startTestServer({ dataDir });
    try {
      await first.createAccount();
      const second = await serve(dataDir).exited;
      expect(second.code).toBe(1);
      const lines = second.stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain(`Shopdesk is already running on this folder at ${first.url}`);

      const accounts = await cli(dataDir, 'accounts', '--json');
      expect(accounts.code).toBe(0);
      expect(JSON.parse(accounts.stdout)).toHaveLength(1);
    } finally {
      await first.stop();
    }
  });

  it('takes over the lock of a server killed with SIGKILL', async () => {
    const dataDir = folder();
    const crashed = serve(dataDir);
    await crashed.url;
    crashed.child.kill('SIGKILL');
    await crashed.exited;

    const server = await startTestServer({ dataDir });
    try {
      // The account the killed server created on its first start is still there, and no second one.
      expect(await listAccounts(server.ctx.db)).toHaveLength(1);
    } finally {
      await server.stop();
    }
  });
});
