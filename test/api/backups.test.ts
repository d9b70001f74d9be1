import { readdirSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { SESSION_TTL_MS } from '../../server/domain/sessions';
import { manualClock } from '../../server/lib/clock';
import type { PruneReport } from '../../server/maintenance/retention';
import { expectOk, expectStatus, type Method, okBody } from '../helpers/api-responses';
import { startTestServer, type TestAccount, type TestServer } from '../helpers/server';

let server: TestServer | undefined;
afterEach(async () => {
  vi.restoreAllMocks();
  await server?.stop();
  server = undefined;
});

async function owner(shop: TestAccount) {
  const cookie = await shop.signIn();
  return <M extends Method, P extends string>(method: M, p: P, body?: unknown) =>
    shop.portal(method, p, { key: null, headers: { cookie }, body });
}

const customerNames = async (shop: TestAccount) =>
  okBody(await shop.portal('GET', '/customers'))
    .data.map((c: { name: string }) => c.name)
    .sort();

describe('backups while serving, and restoring an older one', () => {
  it('backs up, lists, verifies and restores last Tuesday’s backup, keeping the data it replaces', async () => {
    const clock = manualClock('2026-11-17T09:00:00Z');
    server = await startTestServer({ clock });
    const shop = await server.createAccount();
    const ui = await owner(shop);
    await shop.portal('POST', '/customers', { body: { name: 'Ada Lovelace', email: 'ada@example.com' } });

    const tuesday = await ui('POST', '/backups');
    expectStatus(tuesday, 201);
    expect(tuesday.body).toMatchObject({
      object: 'backup',
      reason: 'manual',
      result: 'verified',
      encrypted: false,
    });
    expect(tuesday.body.tables.customers).toBe(1);
    expect(tuesday.body.size_bytes).toBeGreaterThan(0);

    clock.set('2026-11-20T09:00:00Z');
    await shop.portal('POST', '/customers', { body: { name: 'Grace Hopper', email: 'grace@example.com' } });
    const friday = expectOk(await ui('POST', '/backups'));
    const listed = expectOk(await ui('GET', '/backups'));
    expect(listed.body.data.map((b: { id: string }) => b.id)).toEqual([friday.body.id, tuesday.body.id]);
    expect(listed.body.status).toMatchObject({
      health: 'ok',
      last_success_at: '2026-11-20T09:00:00Z',
      last_restore: null,
    });

    const verified = expectOk(await ui('POST', `/backups/${tuesday.body.id}/verify`));
    expect(verified.body.result).toBe('verified');

    await shop.portal('POST', '/customers', { body: { name: 'Edsger Dijkstra', email: 'ewd@example.com' } });
    clock.set('2026-11-21T04:40:00Z');
    const restored = await ui('POST', `/backups/${tuesday.body.id}/restore`);
    expectStatus(restored, 200);
    expect(restored.body.restored.id).toBe(tuesday.body.id);
    expect(restored.body.safety_copy).toMatchObject({ reason: 'pre-restore', result: 'verified' });
    expect(restored.body.safety_copy.tables.customers).toBe(3);

    expect(await customerNames(shop)).toEqual(['Ada Lovelace']);
    // The owner who pressed Restore is still signed in, and the dashboard can say when and from when.
    const afterRestore = await ui('GET', '/backups');
    expectStatus(afterRestore, 200);
    expect(afterRestore.body.status.last_restore).toEqual({
      restored_at: '2026-11-21T04:40:00Z',
      backup_id: tuesday.body.id,
      backup_created_at: '2026-11-17T09:00:00Z',
    });

    // The data the restore replaced is one restore away.
    await ui('POST', `/backups/${restored.body.safety_copy.id}/restore`);
    expect(await customerNames(shop)).toEqual(['Ada Lovelace', 'Edsger Dijkstra', 'Grace Hopper']);
    expect(okBody(await ui('GET', '/backups')).status.last_restore).toMatchObject({
      backup_id: restored.body.safety_copy.id,
      backup_created_at: '2026-11-21T04:40:00Z',
    });
    // Writes go to the reopened database.
    const created = await shop.portal('POST', '/customers', {
      body: { name: 'Alan Turing', email: 'alan@example.com' },
    });
    expectStatus(created, 201);
  });

  it('refuses a damaged backup and changes nothing', async () => {
    server = await startTestServer();
    const shop = await server.createAccount();
    const ui = await owner(shop);
    const backup = expectOk(await ui('POST', '/backups'));
    await shop.portal('POST', '/customers', { body: { name: 'Ada Lovelace', email: 'ada@example.com' } });
    truncateSync(backup.body.file, Math.floor(backup.body.size_bytes / 2));
    const refused = await ui('POST', `/backups/${backup.body.id}/restore`);
    expectStatus(refused, 409);
    expect(refused.body.error.code).toBe('backup_unusable');
    expect(await customerNames(shop)).toEqual(['Ada Lovelace']);
    expect(readdirSync(server.dataDir).filter((name) => name.endsWith('.restoring'))).toEqual([]);
  });

  it('keeps backups to the owner: a portal key may not list, make or restore them', async () => {
    server = await startTestServer();
    const shop = await server.createAccount();
    expect((await shop.portal('GET', '/backups')).status).toBe(403);
    expect((await shop.portal('POST', '/backups')).status).toBe(403);
  });

  it('refuses a portal restore on a folder holding several accounts (it would replace them all)', async () => {
    server = await startTestServer();
    const shop = await server.createAccount();
    await server.createAccount({ business: 'Other' });
    const ui = await owner(shop);
    const backup = await server.backups.create('manual');
    const refused = await ui('POST', `/backups/${backup.id}/restore`);
    expectStatus(refused, 409);
    expect(refused.body.error.code).toBe('several_accounts');
  });

  it("leaves a folder of several businesses' backups to the operator: the portal may not move or make them", async () => {
    server = await startTestServer();
    const shop = await server.createAccount();
    const ui = await owner(shop);
    expect(okBody(await ui('GET', '/backups')).managed_by).toBe('owner');
    await server.createAccount({ business: 'Other' });
    const before = server.backups.status().folder;

    const overview = await ui('GET', '/backups');
    expectStatus(overview, 200);
    expect(overview.body.managed_by).toBe('operator');
    const moved = await ui('PUT', '/backups/folder', { folder: path.join(server.dataDir, 'elsewhere') });
    expectStatus(moved, 403);
    expect(moved.body.error).toMatchObject({ type: 'permission_error', code: 'operator_only' });
    expect(moved.body.error.message).toMatch(/CLI/);
    const made = await ui('POST', '/backups');
    expectStatus(made, 403);
    expect(made.body.error.code).toBe('operator_only');
    expect(server.backups.status().folder).toBe(before);
    expect(server.backups.list()).toEqual([]);
  });

  it('shows a failed backup in the status the dashboard reads, and clears it at the next success', async () => {
    server = await startTestServer();
    const shop = await server.createAccount();
    const ui = await owner(shop);
    const blocker = path.join(server.dataDir, 'not-a-folder');
    writeFileSync(blocker, '');
    // The folder was reachable when chosen (an external drive), then it went away.
    expect((await ui('PUT', '/backups/folder', { folder: path.join(server.dataDir, 'drive') })).status).toBe(
      200,
    );
    writeFileSync(
      path.join(server.dataDir, 'backup-state.json'),
      JSON.stringify({ folder: path.join(blocker, 'x') }),
    );

    const failed = await ui('POST', '/backups');
    expectStatus(failed, 500);
    expect(failed.body.error.code).toBe('backup_failed');
    const status = okBody(await ui('GET', '/backups')).status;
    expect(status.health).toBe('failed');
    expect(status.last_error).toContain('not-a-folder');

    const moved = expectOk(
      await ui('PUT', '/backups/folder', { folder: path.join(server.dataDir, 'elsewhere') }),
    );
    expect(moved.body.folder).toBe(path.join(server.dataDir, 'elsewhere'));
    expect((await ui('POST', '/backups')).status).toBe(201);
    expect(okBody(await ui('GET', '/backups')).status.health).toBe('ok');
  });

  it('runs the daily backup when due and prunes by the retention rule', async () => {
    const clock = manualClock('2026-11-01T02:00:00Z');
    server = await startTestServer({
      clock,
      backups: { schedule: false, retention: { daily: 3, weekly: 2, monthly: 1 } },
    });
    await server.createAccount();
    expect(server.backups.status().health).toBe('never');
    for (let day = 0; day < 10; day++) {
      expect(await server.runDueBackup()).not.toBeNull();
      clock.advance(12 * 60 * 60 * 1000);
      expect(await server.runDueBackup()).toBeNull();
      clock.advance(12 * 60 * 60 * 1000);
    }
    // Nov 1 … 10: the last 3 days, the newest of the 2 last ISO weeks (Sunday the 8th), of the month (the 10th).
    expect(server.backups.list().map((b) => b.created_at.slice(0, 10))).toEqual([
      '2026-11-10',
      '2026-11-09',
      '2026-11-08',
    ]);
    clock.advance(27 * 60 * 60 * 1000);
    expect(server.backups.status().health).toBe('overdue');
  });

  it('pauses the periodic jobs while a restore swaps the file: a pass due meanwhile runs after it, on the restored data', async () => {
    const clock = manualClock('2026-11-01T09:00:00Z');
    server = await startTestServer({ clock });
    const running = server;
    const shop = await server.createAccount();
    await shop.signIn();
    const backup = await server.backups.create('manual');
    clock.advance(SESSION_TTL_MS + 24 * 60 * 60 * 1000);
    // The live database's session has expired: pruned now, it is left only in the backup.
    expect((await server.retention.runNow()).sessions).toBe(1);

    const logged = vi.spyOn(console, 'error');
    // The retention job falls due again and again from before the restore until after it.
    const passes: Array<PruneReport | Error> = [];
    let restoring = true;
    const due = (async () => {
      while (restoring) {
        passes.push(await running.retention.runNow().catch((error: Error) => error));
        // A pass is all microtasks (the driver is synchronous): the restore's file work needs a turn.
        await new Promise((resolve) => setImmediate(resolve));
      }
    })();
    await server.restore(backup.id);
    restoring = false;
    await due;

    expect(passes.filter((pass) => pass instanceof Error)).toEqual([]);
    expect(logged.mock.calls.flat().join(' ')).not.toMatch(/destroyed|a pass failed/);
    // The pass that fell due during the swap ran on the restored file, where the session was back.
    expect(passes.map((pass) => (pass instanceof Error ? null : pass.sessions))).toContain(1);
    expect((await server.retention.runNow()).sessions).toBe(0);
  });
});
