import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import SQLite from 'better-sqlite3-multiple-ciphers';
import { SCHEMA_VERSION } from '../../server/db/database';
import type { RunningServer } from '../../server/index';
import { newId } from '../../server/lib/ids';
import { sentColumns } from '../../server/sync/capture';
import { formatHlc } from '../../server/sync/hlc';
import { syncedTable } from '../../server/sync/tables';
import { SYNC_SCHEMA_HEADER } from '../../shared/schemas/sync';
import { DATA_NOW } from '../generate';
import { assertHealthy, type BenchCase, fmt, load, type Row } from '../harness';
import { type BenchServer, startBenchServer } from '../processes';
import { checkpoint, copyOverHttp, hubRowCount, joinInChild } from '../sync-join';
import { invoiceBodies } from './invoices-create';

/**
 * Sync against the design note's section 5: first pairing and first sync of the whole bench
 * account, edit-to-visible latency between two running servers, hub ingest, and what change
 * capture costs invoice creation. Everything runs on copies under bench/.data/sync-*.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const LATENCY_SAMPLES = 40;
const CAPTURE_ROUNDS = 3;
const INGEST_DEVICES = 10;
const INGEST_BATCHES = 10;
const INGEST_BATCH = 500;

const seconds = (ms: number) => ms / 1000;
const mb = (bytes: number) => `${fmt(bytes / 1_048_576, 0)} MB`;

/** What the sync figures ask of a server beside its routes: a bench process, or one in this process (bench/sync-writes.ts). */
export interface SyncPeer {
  url: string;
  pair(accountId: string, options?: { name?: string; hubUrl?: string }): Promise<{ pairing_code: string }>;
  syncNow(accountId: string): Promise<void>;
  setOnline(online: boolean): Promise<void>;
}

function peerOf(server: BenchServer): SyncPeer {
  return {
    url: server.url,
    // The IPC channel sends an absent argument as null, which a parameter's default does not replace.
    pair: (accountId, options) => server.call('pair', accountId, options ?? {}),
    syncNow: (accountId) => server.call('syncNow', accountId),
    setOnline: (online) => server.call('setOnline', online),
  };
}

export function inProcessPeer(server: RunningServer): SyncPeer {
  const engine = () => {
    if (!server.ctx.sync) throw new Error('The server runs no sync engine');
    return server.ctx.sync;
  };
  return {
    url: server.url,
    pair: (accountId, options) => engine().pair(accountId, options),
    syncNow: async (accountId) => {
      await engine().syncNow(accountId);
    },
    setOnline: async (online) => server.setOnline(online),
  };
}

const sync: BenchCase = async ({ server, account, dataFile, seconds: loadSeconds, log }) => {
  // A folder per run: two runs of the case in one worktree must not share files.
  const work = mkdtempSync(path.join(here, '..', '.data', 'sync-'));
  const hubDir = path.join(work, 'hub');
  const deviceDir = path.join(work, 'device');
  mkdirSync(hubDir, { recursive: true });
  mkdirSync(deviceDir, { recursive: true });
  copyFileSync(dataFile, path.join(hubDir, 'shopdesk.sqlite'));

  // The bench clock keeps the portal's per-key rate limit out of the invoice load. Both run as the
  // bench's own server does, compiled in processes of their own.
  const hubProcess = await startBenchServer({ dataDir: hubDir, dataNow: DATA_NOW });
  const hub = peerOf(hubProcess);
  let device: BenchServer | undefined;
  const rows: Row[] = [];
  try {
    const hubKey = await hubProcess.call('createKey', account.id, 'portal');

    log('sync: first pairing (the whole business into the hub)…');
    const pairingStarted = performance.now();
    await hub.pair(account.id, { hubUrl: hub.url });
    const pairingMs = performance.now() - pairingStarted;

    log('sync: invoice creation, standalone and paired…');
    const invoices = await captureCost(
      { url: server.url, key: account.portalKey },
      { peer: hub, key: hubKey },
      account,
      loadSeconds,
    );

    log('sync: first sync of a new device…');
    const { pairing_code } = await hub.pair(account.id);
    const join = await joinInChild(hub.url, pairing_code, deviceDir);
    const hubFile = path.join(hubDir, 'shopdesk.sqlite');
    // The floor is the joining device's own file: what it ends up holding, not the hub's, which
    // also keeps every row's history and clocks and is about three times larger.
    const deviceFile = path.join(deviceDir, 'shopdesk.sqlite');
    checkpoint(deviceFile);
    const floor = await copyOverHttp(deviceFile, path.join(work, 'copy.sqlite'));
    const firstSyncRatio = join.ms / floor.ms;
    const joinedRows = hubRowCount(hubFile, account.id);

    log('sync: edit-to-visible latency…');
    device = await startBenchServer({ dataDir: deviceDir });
    await device.call('syncNow', account.id);
    const deviceKey = await device.call('createKey', account.id, 'portal');
    const latencies = await editToVisible(
      { url: hub.url, key: hubKey, file: hubFile },
      { url: device.url, key: deviceKey, file: path.join(deviceDir, 'shopdesk.sqlite') },
      account.id,
    );
    await device.close();
    device = undefined;

    log('sync: hub ingest…');
    const ingest = await hubIngest(hub, account.id, hubFile);

    const captureRatio = invoices.paired / invoices.standalone;
    const median = percentile(latencies.all, 0.5);
    rows.push(
      {
        case: 'sync: first pairing (whole business into the hub)',
        figure: `${fmt(seconds(pairingMs))} s`,
        target: '',
        pass: null,
      },
      {
        case: 'sync: first sync of a device (join, child process)',
        figure: `${fmt(seconds(join.ms))} s, ${fmt(joinedRows / seconds(join.ms), 0)} rows/s, CPU ${fmt(join.cpuSeconds)} s, peak RSS ${fmt(join.peakKb / 1024, 0)} MB`,
        target: '',
        pass: null,
      },
      {
        case: 'sync: first sync, joiner peak RSS',
        figure: `${fmt(join.peakKb / 1024, 0)} MB`,
        target: '≤ 300 MB',
        pass: join.peakKb / 1024 <= 300,
      },
      {
        case: `sync: floor, the device's own SQLite file (${mb(floor.bytes)}) over loopback HTTP`,
        figure: `${fmt(seconds(floor.ms))} s`,
        target: '',
        pass: null,
      },
      {
        case: 'sync: first sync ÷ floor',
        figure: fmt(firstSyncRatio, 2),
        target: '≤ 3',
        pass: firstSyncRatio <= 3,
      },
      {
        case: `sync: edit-to-visible, ${latencies.all.length} edits (median)`,
        figure: `${fmt(median, 2)} s (hub → device ${fmt(percentile(latencies.toDevice, 0.5), 2)} s, device → hub ${fmt(percentile(latencies.toHub, 0.5), 2)} s)`,
        target: '< 2 s',
        pass: median < 2,
      },
      {
        case: 'sync: edit-to-visible (p99)',
        figure: `${fmt(percentile(latencies.all, 0.99), 2)} s`,
        target: '',
        pass: null,
      },
      {
        case: `sync: hub ingest, ${INGEST_DEVICES} devices × ${INGEST_BATCHES} pushes of ${INGEST_BATCH}`,
        figure: `${fmt(ingest.perSecond, 0)} changes/s`,
        target: '≥ 5,000/s',
        pass: ingest.perSecond >= 5000,
      },
      {
        case: `sync: POST /invoices/create, standalone (median of ${CAPTURE_ROUNDS})`,
        figure: `${fmt(invoices.standalone, 0)} req/s (${invoices.range.standalone})`,
        target: '',
        pass: null,
      },
      {
        case: `sync: POST /invoices/create, paired hub (median of ${CAPTURE_ROUNDS})`,
        figure: `${fmt(invoices.paired, 0)} req/s (${invoices.range.paired})`,
        target: '',
        pass: null,
      },
      {
        case: 'sync: POST /invoices/create, paired hub offline (capture, no push)',
        figure: `${fmt(invoices.offline, 0)} req/s (${invoices.range.offline})`,
        target: '',
        pass: null,
      },
      {
        case: 'sync: invoice req/s paired ÷ standalone',
        figure: fmt(captureRatio, 2),
        target: '≥ 0.85',
        pass: captureRatio >= 0.85,
      },
    );
  } finally {
    await device?.close();
    await hubProcess.close();
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
};
export default sync;

export interface Portal {
  url: string;
  key: string;
}

/**
 * Invoice creation on the standalone bench server and on the paired hub (same data, same
 * process), online and offline (offline the triggers still capture but nothing is pushed).
 * The three alternate for several rounds and each figure is a median: on a shared machine one
 * run after another measures the neighbours' load as much as the code.
 */
export async function captureCost(
  standalone: Portal,
  hub: { peer: SyncPeer; key: string },
  account: { id: string; counts: Record<string, number> },
  loadSeconds: number,
) {
  const body = invoiceBodies(account.counts.customers!);
  const rate = async ({ url, key }: Portal, runSeconds: number) => {
    const result = await load({
      url: `${url}/api/portal/${account.id}/invoices/create`,
      method: 'POST',
      headers: { authorization: `Bearer ${key}` },
      body,
      seconds: runSeconds,
    });
    assertHealthy('POST /invoices/create', result);
    return result.requestsPerSecond;
  };
  const settle = () => hub.peer.syncNow(account.id);
  const paired = { url: hub.peer.url, key: hub.key };
  await rate(standalone, 1);
  await rate(paired, 1);
  await settle();
  const runs = { standalone: [] as number[], paired: [] as number[], offline: [] as number[] };
  for (let round = 0; round < CAPTURE_ROUNDS; round++) {
    runs.standalone.push(await rate(standalone, loadSeconds));
    runs.paired.push(await rate(paired, loadSeconds));
    // The paired run's last pushes would otherwise fall into the next run.
    await settle();
    await hub.peer.setOnline(false);
    runs.offline.push(await rate(paired, loadSeconds));
    await hub.peer.setOnline(true);
    await settle();
  }
  const range = (values: number[]) => `${fmt(Math.min(...values), 0)}–${fmt(Math.max(...values), 0)}`;
  return {
    standalone: percentile(runs.standalone, 0.5),
    paired: percentile(runs.paired, 0.5),
    offline: percentile(runs.offline, 0.5),
    range: {
      standalone: range(runs.standalone),
      paired: range(runs.paired),
      offline: range(runs.offline),
    },
  };
}

interface Replica {
  url: string;
  key: string;
  file: string;
}

/**
 * A phone number changed through the portal API on one replica, timed from the request until a
 * read of the other's database shows it. Directions alternate; a different customer each time.
 */
async function editToVisible(hub: Replica, device: Replica, accountId: string) {
  const toDevice: number[] = [];
  const toHub: number[] = [];
  const readers = new Map([hub, device].map((r) => [r, new SQLite(r.file, { readonly: true })]));
  try {
    for (let i = 0; i < LATENCY_SAMPLES; i++) {
      const [from, to] = i % 2 === 0 ? [hub, device] : [device, hub];
      const email = `customer${(i * 613) % 1000}@example.com`;
      const phone = `555-${String(i).padStart(4, '0')}-${Date.now() % 100_000}`;
      const seen = readers
        .get(to)!
        .prepare('SELECT phone FROM customers WHERE account_id = ? AND email_lower = ?');
      const started = performance.now();
      const response = await fetch(
        `${from.url}/api/portal/${accountId}/customers/${encodeURIComponent(email)}`,
        {
          method: 'PATCH',
          headers: { authorization: `Bearer ${from.key}`, 'content-type': 'application/json' },
          body: JSON.stringify({ phone }),
        },
      );
      if (!response.ok) throw new Error(`PATCH customer: ${response.status} ${await response.text()}`);
      for (;;) {
        if ((seen.get(accountId, email) as { phone: string | null } | undefined)?.phone === phone) break;
        if (performance.now() - started > 30_000) throw new Error(`edit ${i} not visible after 30 s`);
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
      (from === hub ? toDevice : toHub).push(seconds(performance.now() - started));
      // An owner's edits are seconds apart; back to back they would share one push.
      await new Promise((resolve) => setTimeout(resolve, 400));
    }
  } finally {
    for (const reader of readers.values()) reader.close();
  }
  return { toDevice, toHub, all: [...toDevice, ...toHub] };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}

/**
 * Simulated devices push new customers straight to the hub's sync API, concurrently, in batches
 * of 500 (a device's push size). The figure is changes the hub accepted per second of wall time.
 */
export async function hubIngest(hub: SyncPeer, accountId: string, hubFile: string) {
  const template = templateCustomer(hubFile, accountId);
  const headers = { 'content-type': 'application/json', [SYNC_SCHEMA_HEADER]: String(SCHEMA_VERSION) };
  const devices = [];
  for (let d = 0; d < INGEST_DEVICES; d++) {
    const { pairing_code } = await hub.pair(accountId, { name: `Bench device ${d}` });
    const response = await fetch(`${hub.url}/api/sync/v1/join`, {
      method: 'POST',
      headers,
      body: JSON.stringify({ code: pairing_code }),
    });
    if (!response.ok) throw new Error(`join: ${response.status} ${await response.text()}`);
    const { credential } = (await response.json()) as { credential: string };
    const node = `bench${String(d).padStart(7, '0')}`;
    const batches = Array.from({ length: INGEST_BATCHES }, (_, b) =>
      JSON.stringify({
        changes: Array.from({ length: INGEST_BATCH }, (_, i) => {
          const n = b * INGEST_BATCH + i;
          const id = newId('cus');
          const email = `ingest-${d}-${n}@example.com`;
          const hlc = formatHlc({ ms: Date.now(), counter: n }, node);
          const v = { ...template, id, email, email_lower: email, name: `Ingest ${d}-${n}` };
          return {
            local_seq: n + 1,
            table: 'customers',
            pk: JSON.stringify([id]),
            state: { v, c: Object.fromEntries(Object.keys(v).map((column) => [column, hlc])) },
          };
        }),
      }),
    );
    devices.push({ credential, batches });
  }
  let accepted = 0;
  const started = performance.now();
  await Promise.all(
    devices.map(async ({ credential, batches }) => {
      for (const body of batches) {
        const response = await fetch(`${hub.url}/api/sync/v1/push`, {
          method: 'POST',
          headers: { ...headers, authorization: `Bearer ${credential}` },
          body,
        });
        if (!response.ok) throw new Error(`push: ${response.status} ${await response.text()}`);
        accepted += ((await response.json()) as { accepted: number }).accepted;
      }
    }),
  );
  const ms = performance.now() - started;
  const sent = INGEST_DEVICES * INGEST_BATCHES * INGEST_BATCH;
  if (accepted !== sent) throw new Error(`the hub accepted ${accepted} of ${sent} changes`);
  return { perSecond: accepted / seconds(ms), changes: accepted };
}

/** A customer row of the account as a device sends it: every synced column. */
function templateCustomer(file: string, accountId: string): Record<string, unknown> {
  const db = new SQLite(file, { readonly: true });
  try {
    const columns = sentColumns(db, syncedTable('customers')!);
    return db
      .prepare(`SELECT ${columns.join(', ')} FROM customers WHERE account_id = ? LIMIT 1`)
      .get(accountId) as Record<string, unknown>;
  } finally {
    db.close();
  }
}
