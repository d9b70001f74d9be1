import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DATABASE_FILE } from '../../server/db/storage-errors';
import { updateConfig } from '../../server/domain/accounts';
import { createCustomer } from '../../server/domain/customers';
import { DISABLE_AFTER_FAILURES } from '../../server/domain/webhook-failures';
import { createEndpoint } from '../../server/domain/webhooks';
import { startTestServer, type TestServer } from '../helpers/server';
import { serve } from '../reliability/processes';
import { answer, eventually, type Receiver, startReceiver } from './receiver';

let server: TestServer | undefined;
let receiver: Receiver | undefined;
let child: ChildProcess | undefined;
const folders: string[] = [];
afterEach(async () => {
  child?.kill('SIGKILL');
  await server?.stop();
  await receiver?.close();
  server = receiver = child = undefined;
  vi.restoreAllMocks();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function folder(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'shopdesk-hook-thread-'));
  folders.push(dir);
  return dir;
}

/** A receiver in a process of its own, which adds a line to a file per delivery: it answers while this thread is blocked. */
async function receiverProcess(marker: string): Promise<string> {
  const program = `
    const { appendFileSync } = require('node:fs');
    const server = require('node:http').createServer((request, response) => {
      request.resume();
      request.on('end', () => { appendFileSync(${JSON.stringify(marker)}, 'delivered\\n'); response.end('ok'); });
    });
    server.listen(0, '127.0.0.1', () => console.log(server.address().port));`;
  child = spawn(process.execPath, ['-e', program], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child!.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child!.once('exit', (code) => reject(new Error(`the receiver exited (${code})`)));
  });
  return `http://127.0.0.1:${port}/hook`;
}

/** Blocks this thread (no event loop turns) until `done` or the limit; answers whether `done` came. */
function blockUntil(done: () => boolean, limitMs: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  const end = Date.now() + limitMs;
  while (!done()) {
    if (Date.now() > end) return false;
    Atomics.wait(pause, 0, 0, 20);
  }
  return true;
}

describe('webhook delivery on its own thread', () => {
  it('delivers while the server’s event loop is blocked', async () => {
    server = await startTestServer();
    const marker = path.join(folder(), 'delivered');
    const url = await receiverProcess(marker);
    const account = await server.createAccount();
    await updateConfig(server.ctx, account.clientId, { allow_local_webhooks: true });
    await createEndpoint(server.ctx, account.clientId, 'portal', { url, events: ['*'], enabled: true });
    await createCustomer(server.ctx, account.clientId, { name: 'Ada', email: 'ada@example.com' });
    // The first delivery starts the thread (none runs while nothing waits to be sent).
    await server.outbound.webhooks.runDue();
    await createCustomer(server.ctx, account.clientId, { name: 'Grace', email: 'grace@example.com' });
    server.ctx.signals.emit('outbox');
    const delivered = () => (existsSync(marker) ? readFileSync(marker, 'utf8').split('\n').length - 1 : 0);
    // Generous for a loaded machine: the thread claims, signs, sends and records on its own.
    expect(blockUntil(() => delivered() === 2, 60_000)).toBe(true);
    await eventually(async () => {
      const rows = await server!.ctx.db.selectFrom('webhook_deliveries').select('status').execute();
      return rows.length === 2 && rows.every((row) => row.status === 'succeeded');
    }, 'both deliveries recorded as succeeded');
  }, 120_000);

  it('logs the thread’s failures through the server’s log', async () => {
    server = await startTestServer({ localWebhooks: true });
    receiver = await startReceiver(answer(200));
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const account = await server.createAccount();
    await createEndpoint(server.ctx, account.clientId, 'portal', {
      url: receiver.url,
      events: ['*'],
      enabled: true,
    });
    await server.ctx.db.executeQuery(
      (await import('kysely')).sql`CREATE TRIGGER refuse_attempts BEFORE INSERT ON webhook_attempts
        BEGIN SELECT RAISE(ABORT, 'attempts refused by the test'); END`.compile(server.ctx.db),
    );
    await createCustomer(server.ctx, account.clientId, { name: 'Ada', email: 'ada@example.com' });
    await server.outbound.webhooks.runDue();
    const failure = logged.mock.calls.find(([message]) => /failed to record/.test(String(message)));
    expect(failure).toBeDefined();
    expect(String((failure![1] as Error).message)).toContain('attempts refused by the test');
  }, 120_000);

  it('disables, at the next start, an endpoint a stop left at the failure bound, and sends it nothing more', async () => {
    const dataDir = folder();
    server = await startTestServer({ dataDir, localWebhooks: true });
    receiver = await startReceiver(answer(500));
    const account = await server.createAccount();
    const endpoint = await createEndpoint(server.ctx, account.clientId, 'v1', {
      url: receiver.url,
      events: ['*'],
      enabled: true,
    });
    await server.setOnline(false);
    await createCustomer(server.ctx, account.clientId, { name: 'Ada', email: 'ada@example.com' });
    // As the thread leaves it when the server stops between counting the failure and disabling.
    await server.ctx.db
      .updateTable('webhook_endpoints')
      .set({ consecutive_failures: DISABLE_AFTER_FAILURES })
      .where('id', '=', endpoint.id)
      .execute();
    await server.stop();

    server = await startTestServer({ dataDir, localWebhooks: true });
    await server.outbound.webhooks.runDue();
    expect(receiver.received).toHaveLength(0);
    await eventually(async () => {
      const row = await server!.ctx.db
        .selectFrom('webhook_endpoints')
        .select(['enabled', 'disabled_reason'])
        .where('id', '=', endpoint.id)
        .executeTakeFirstOrThrow();
      return row.enabled === 0 && row.disabled_reason === 'consecutive_failures';
    }, 'the endpoint disabled');
  }, 120_000);

  it('runs from its bundle in the bundled server, and a stop hands back the delivery in flight', async () => {
    const dataDir = folder();
    server = await startTestServer({ dataDir, localWebhooks: true });
    // The receiver never answers: the delivery is still out when the server is told to stop.
    receiver = await startReceiver(() => undefined);
    const account = await server.createAccount();
    await createEndpoint(server.ctx, account.clientId, 'portal', {
      url: receiver.url,
      events: ['*'],
      enabled: true,
    });
    await server.setOnline(false);
    await createCustomer(server.ctx, account.clientId, { name: 'Ada', email: 'ada@example.com' });
    await server.stop();
    server = undefined;

    const headless = serve(dataDir);
    child = headless.child;
    await headless.url;
    // Generous: the process starts on a loaded machine.
    await eventually(() => receiver!.received.length === 1, 'the bundled server’s delivery', 60_000);
    headless.child.kill('SIGTERM');
    const outcome = await headless.exited;
    expect(outcome.code, outcome.stderr).toBe(0);

    const file = new SQLite(path.join(dataDir, DATABASE_FILE), { readonly: true });
    try {
      expect(file.prepare('SELECT status, attempts FROM webhook_deliveries').all()).toEqual([
        { status: 'pending', attempts: 0 },
      ]);
      expect(file.prepare('SELECT count(*) AS n FROM webhook_attempts').get()).toEqual({ n: 0 });
    } finally {
      file.close();
    }
  }, 180_000);
});
