import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createContext } from '../../server/context';
import { createAccount } from '../../server/domain/accounts';
import { manualClock } from '../../server/lib/clock';
import { forgetIds } from '../../server/lib/ids';
import { openDatabase } from '../../server/sync/open';
import { startTestServer, type TestServer } from '../helpers/server';
import { answer, type Receiver, startReceiver } from '../outbound/receiver';

const SECOND = 1000;
const HOUR = 60 * 60 * SECOND;

let server: TestServer | undefined;
let receiver: Receiver | undefined;
const folders: string[] = [];
afterEach(async () => {
  await server?.stop();
  await receiver?.close();
  server = undefined;
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

describe('a wall clock stepped back', () => {
  it('does not delay a webhook retry that was due in 10 s', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    server = await startTestServer({
      clock,
      localWebhooks: true,
      outbound: { webhooks: { jitter: () => 1 } },
    });
    receiver = await startReceiver(answer(500));
    const shop = await server.createAccount();
    await shop.portal('POST', '/webhooks', { body: { url: receiver.url } });
    await shop.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    await server.outbound.webhooks.runDue();
    expect(receiver.received).toHaveLength(1);

    clock.set('2026-11-22T07:00:00Z');
    clock.advance(10 * SECOND);
    await server.outbound.webhooks.runDue();
    expect(receiver.received).toHaveLength(2);
  });

  it('does not hold a claim left by a stopped server until its lease time comes round again', async () => {
    const clock = manualClock('2026-11-22T09:00:00Z');
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-lease-'));
    folders.push(dataDir);
    server = await startTestServer({ clock, dataDir, localWebhooks: true });
    receiver = await startReceiver(answer(200));
    const shop = await server.createAccount();
    await server.setOnline(false);
    await shop.portal('POST', '/webhooks', { body: { url: receiver.url } });
    await shop.portal('POST', '/customers', { body: { name: 'Ada', email: 'ada@example.com' } });
    // As a server whose clock ran 2 h fast would have left its claim when it was killed.
    await server.ctx.db
      .updateTable('webhook_deliveries')
      .set({ status: 'sending', next_attempt_at: '2026-11-22T11:00:30Z' })
      .execute();
    await server.stop();

    server = await startTestServer({ clock, dataDir, localWebhooks: true });
    await server.outbound.webhooks.runDue();
    expect(receiver.received).toHaveLength(1);
  });

  it('new records still sort after the existing ones after a restart', async () => {
    const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-ids-'));
    folders.push(dataDir);
    const clock = manualClock('2026-11-22T09:00:00Z');

    async function addAccount(name: string): Promise<string> {
      // A fresh process: the newest id this process made starts empty. Forgotten rather than the
      // modules loaded again: a worker shares its modules between files, and a second copy of the
      // shared schemas would take over their ids in zod's global registry (the OpenAPI names).
      forgetIds();
      const database = await openDatabase(dataDir);
      try {
        const ctx = createContext(database.db, clock);
        return (await createAccount(ctx, { businessName: name, plan: 'platform', apiPlan: 'lite' })).id;
      } finally {
        await database.close();
      }
    }

    const before = await addAccount('Before the step');
    clock.set(new Date(clock.now().getTime() - 2 * HOUR));
    const after = await addAccount('After the step');
    expect(after > before).toBe(true);
  });
});
