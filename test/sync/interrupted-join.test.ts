import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { afterAll, describe, expect, it } from 'vitest';
import { cliJson as cli, killServedProcesses, serveProcess as serve } from '../helpers/child-installs';
import { bundledArgs } from '../helpers/process-bundles';

/**
 * A first sync killed in the middle of loading the hub's snapshot (SIGKILL, so nothing is cleaned
 * up) leaves the folder with none of the business: no rows, every index and trigger the load sets
 * aside still there; the device's next round (its server starting) loads the snapshot again and
 * ends as a device whose join was never interrupted; the payments' tax shares a join rebuilds are
 * those the hub's own install keeps.
 */
const root = path.resolve(import.meta.dirname, '../..');
const folders: string[] = [];
const processes: ChildProcess[] = [];

afterAll(() => {
  killServedProcesses();
  for (const child of processes) child.kill('SIGKILL');
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `shopdesk-interrupted-${name}-`));
  folders.push(dir);
  return dir;
}

async function portal<T>(
  base: string,
  key: string,
  clientId: string,
  route: string,
  body: unknown,
): Promise<T> {
  const response = await fetch(`${base}/api/portal/${clientId}${route}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`POST ${route}: ${response.status} ${text}`);
  return JSON.parse(text) as T;
}

/**
 * A proxy to the hub that kills the joining process when it asks for the `killAt`-th snapshot
 * page (by then the load has set indexes and triggers aside and written the first tables' rows),
 * and passes everything else on: the device goes on syncing through it.
 */
async function killingProxy(hubUrl: string, killAt: number, victim: () => ChildProcess | undefined) {
  const hub = new URL(hubUrl);
  let pages = 0;
  const server = http.createServer((request, response) => {
    if (request.url?.includes('/snapshot') && ++pages === killAt) {
      victim()?.kill('SIGKILL');
      response.destroy();
      return;
    }
    const forwarded = http.request(
      {
        host: hub.hostname,
        port: hub.port,
        path: request.url,
        method: request.method,
        headers: request.headers,
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(response);
      },
    );
    forwarded.on('error', () => response.destroy());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}

function read<T>(dataDir: string, run: (sqlite: SQLite.Database) => T): T {
  const sqlite = new SQLite(path.join(dataDir, 'shopdesk.sqlite'));
  try {
    return run(sqlite);
  } finally {
    sqlite.close();
  }
}

const BUSINESS = [
  'customers',
  'invoices',
  'document_lines',
  'document_taxes',
  'payments',
  'payment_tax_shares',
];

function stateOf(dataDir: string) {
  return read(dataDir, (sqlite) => ({
    tables: Object.fromEntries(
      BUSINESS.map((table) => [table, sqlite.prepare(`SELECT * FROM ${table} ORDER BY 1, 2`).all()]),
    ),
    figures: sqlite.prepare('SELECT * FROM customer_figures ORDER BY customer_id').all(),
    schema: schemaOf(sqlite),
  }));
}

const schemaOf = (sqlite: SQLite.Database) =>
  sqlite
    .prepare(`SELECT type, name, sql FROM sqlite_master WHERE type IN ('index', 'trigger') ORDER BY name`)
    .all();

describe('a first sync killed during the snapshot load', () => {
  // A dozen process starts on a loaded 2-core machine: a generous limit.
  it('leaves no part of the business, and the next round loads it whole', async () => {
    const hubDir = folder('hub');
    const account = await cli<{ client_id: string; portal_key: string }>(
      hubDir,
      'init',
      '--business',
      'Sparkle',
    );
    const clientId = account.client_id;
    const hub = await serve(hubDir);
    for (let n = 0; n < 6; n++) {
      const created = await portal<{ number: string }>(
        hub.url,
        account.portal_key,
        clientId,
        '/invoices/create',
        {
          customer_email: `customer${n % 3}@example.com`,
          customer_name: `Customer ${n % 3}`,
          issue_date: '2026-02-01',
          items: [{ description: 'Deep clean', quantity: 1 + n, unit_price: 80 }],
          taxes: [
            { name: 'GST', rate: 0.05 },
            { name: 'QST', rate: 0.09975 },
          ],
        },
      );
      await portal(hub.url, account.portal_key, clientId, `/invoices/${created.number}/mark-sent`, {});
      await portal(hub.url, account.portal_key, clientId, `/invoices/${created.number}/payment`, {
        amount: 50 + n,
        paid_at: `2026-03-0${1 + n}T10:00:00Z`,
        method: 'card',
      });
    }

    const whole = folder('whole');
    const code = async (url: string) =>
      (await cli<{ pairing_code: string }>(hubDir, 'sync', 'pair', '--url', url)).pairing_code;
    await cli(whole, 'sync', 'join', '--hub', hub.url, '--code', await code(hub.url));

    let joining: ChildProcess | undefined;
    const proxy = await killingProxy(hub.url, 6, () => joining);
    const killed = folder('killed');
    const pairing = await code(proxy.url);
    joining = spawn(
      process.execPath,
      bundledArgs(
        'cli',
        'sync',
        'join',
        '--hub',
        proxy.url,
        '--code',
        pairing,
        '--json',
        '--data-dir',
        killed,
      ),
      { cwd: root, stdio: 'ignore' },
    );
    processes.push(joining);
    const signal = await new Promise((resolve) => joining!.once('exit', (_code, signal) => resolve(signal)));
    expect(signal).toBe('SIGKILL');

    // Opening the file rolls the load back from its journal, as the next start does.
    read(killed, (sqlite) => {
      for (const table of ['accounts', ...BUSINESS]) {
        expect(sqlite.prepare(`SELECT count(*) AS n FROM ${table}`).get(), table).toEqual({ n: 0 });
      }
      expect(sqlite.prepare('SELECT cursor FROM sync_settings').all()).toEqual([{ cursor: 0 }]);
      expect(schemaOf(sqlite)).toEqual(read(whole, schemaOf));
    });

    // The device's server goes on where the join stopped: its first round loads the snapshot again.
    const device = await serve(killed);
    await expect
      .poll(() => read(killed, (sqlite) => sqlite.prepare('SELECT cursor FROM sync_settings').get()), {
        timeout: 60_000,
        interval: 200,
      })
      .not.toEqual({ cursor: 0 });
    await device.stop();
    proxy.close();
    await hub.stop();
    const expected = stateOf(whole);
    expect(expected.tables.payment_tax_shares!.length).toBeGreaterThan(6);
    expect(stateOf(killed)).toEqual(expected);
    // The shares a joined device rebuilt in one pass are those the hub's install kept by its triggers.
    const shares = (sqlite: SQLite.Database) =>
      sqlite.prepare('SELECT * FROM payment_tax_shares ORDER BY payment_id, position').all();
    expect(read(whole, shares)).toEqual(read(hubDir, shares));
  }, 180_000);
});
