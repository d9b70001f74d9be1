import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cliJson as cli, killServedProcesses, serveProcess as serve } from '../helpers/child-installs';

/**
 * Sync with real processes: a hub and two devices, each `npm run serve` on its own folder and
 * port, paired and joined with the CLI; both devices work offline while the hub is down, then
 * everything syncs and the three exports must be identical.
 */
const folders: string[] = [];

afterAll(() => {
  killServedProcesses();
  for (const folder of folders) rmSync(folder, { recursive: true, force: true });
});

function folder(name: string): string {
  const dir = mkdtempSync(path.join(tmpdir(), `shopdesk-sync-${name}-`));
  folders.push(dir);
  return dir;
}

async function call(
  base: string,
  key: string,
  clientId: string,
  method: string,
  route: string,
  body?: unknown,
) {
  const response = await fetch(`${base}/api/portal/${clientId}${route}`, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await response.text();
  if (!response.ok) throw new Error(`${method} ${route}: ${response.status} ${text}`);
  return JSON.parse(text);
}

async function exportOf(base: string, key: string, clientId: string) {
  const body = await call(base, key, clientId, 'GET', '/export');
  delete body.exported_at;
  return body;
}

describe('sync between real processes', () => {
  // Eleven process starts, seconds each on a loaded 2-core machine: a generous limit.
  it('converges after both devices worked offline while the hub was down', async () => {
    const hubDir = folder('hub');
    const account = await cli<{ client_id: string; portal_key: string }>(
      hubDir,
      'init',
      '--business',
      'Sparkle',
    );
    const clientId = account.client_id;
    let hub = await serve(hubDir);
    const hubPort = new URL(hub.url).port;
    await call(hub.url, account.portal_key, clientId, 'POST', '/invoices/create', {
      customer_email: 'ada@example.com',
      customer_name: 'Ada',
      items: [{ description: 'Deep clean', quantity: 2, unit_price: 80 }],
    });

    // The two devices pair, join and start side by side, as two people setting up at once would.
    const devices = await Promise.all(
      ['laptop', 'van'].map(async (name) => {
        const pairing = await cli<{ pairing_code: string; hub_url: string }>(
          hubDir,
          'sync',
          'pair',
          '--name',
          name,
          '--url',
          hub.url,
        );
        expect(pairing.hub_url).toBe(hub.url);
        const dir = folder(name);
        const joined = await cli<{ client_id: string; device_id: string }>(
          dir,
          'sync',
          'join',
          '--hub',
          hub.url,
          '--code',
          pairing.pairing_code,
        );
        expect(joined.client_id).toBe(clientId);
        const { key } = await cli<{ key: string }>(dir, 'portal-key');
        return { dir, key, served: await serve(dir) };
      }),
    );
    const [laptop, van] = devices as [(typeof devices)[number], (typeof devices)[number]];

    const status = await call(hub.url, account.portal_key, clientId, 'GET', '/sync');
    expect(status.role).toBe('hub');
    expect(status.devices).toHaveLength(3);

    // The hub goes down; both devices keep working.
    await hub.stop();
    await call(laptop.served.url, laptop.key, clientId, 'POST', '/invoices/create', {
      customer_email: 'bo@example.com',
      customer_name: 'Bo',
      items: [{ description: 'Gutter clean', quantity: 1, unit_price: 150 }],
    });
    const invoices = await call(laptop.served.url, laptop.key, clientId, 'GET', '/invoices?limit=10');
    const ada = invoices.data.find(
      (i: { customer: { email: string } }) => i.customer.email === 'ada@example.com',
    );
    await call(laptop.served.url, laptop.key, clientId, 'POST', `/invoices/${ada.number}/send`);
    await call(laptop.served.url, laptop.key, clientId, 'POST', `/invoices/${ada.number}/payment`, {
      amount: 50,
    });
    await call(van.served.url, van.key, clientId, 'POST', '/jobs/create', {
      customer_email: 'ada@example.com',
      title: 'Window cleaning',
      scheduled_start: '2026-12-01T17:00:00Z',
      scheduled_end: '2026-12-01T19:00:00Z',
      price: 120,
    });
    await call(van.served.url, van.key, clientId, 'POST', '/customers/ada@example.com/tags', {
      tags: ['vip'],
    });
    const offline = await call(van.served.url, van.key, clientId, 'POST', '/sync/now').catch(
      (error: Error) => error,
    );
    expect(String(offline)).toMatch(/502.*cannot be reached/);
    const waiting = await call(van.served.url, van.key, clientId, 'GET', '/sync');
    expect(waiting.pending).toBeGreaterThan(0);
    expect(waiting.last_error).toMatch(/cannot be reached/);

    // The hub comes back on its address; a round on each device brings everything together.
    hub = await serve(hubDir, Number(hubPort));
    for (let pass = 0; pass < 2; pass++) {
      for (const device of [laptop, van])
        await call(device.served.url, device.key, clientId, 'POST', '/sync/now');
      await call(hub.url, account.portal_key, clientId, 'POST', '/sync/now');
    }
    const reference = await exportOf(hub.url, account.portal_key, clientId);
    expect(reference.invoices).toHaveLength(2);
    expect(reference.jobs).toHaveLength(1);
    expect(reference.payments).toHaveLength(1);
    expect(reference.customers.find((c: { email: string }) => c.email === 'ada@example.com').tags).toEqual([
      'vip',
    ]);
    for (const device of [laptop, van]) {
      expect(await exportOf(device.served.url, device.key, clientId)).toEqual(reference);
    }
    const numbers = reference.invoices.map((i: { number: string }) => i.number);
    expect(new Set(numbers).size).toBe(numbers.length);

    await Promise.all([hub, laptop.served, van.served].map((served) => served.stop()));
  }, 300_000);
});
