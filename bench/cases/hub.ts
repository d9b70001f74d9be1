import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { SCHEMA_VERSION } from '../../server/db/database';
import { systemClock } from '../../server/lib/clock';
import { newId } from '../../server/lib/ids';
import { formatHlc } from '../../server/sync/hlc';
import { migratePgHub } from '../../server/sync/hub/pg-schema';
import { pgHubStorage } from '../../server/sync/hub/pg-storage';
import { Hub } from '../../server/sync/hub/service';
import { sqliteHubStorage } from '../../server/sync/hub/sqlite-storage';
import type { HubStorage } from '../../server/sync/hub/storage';
import { openDatabase } from '../../server/sync/open';
import { SYNC_SCHEMA_HEADER } from '../../shared/schemas/sync';
import { startThrowawayPostgres } from '../../test/helpers/postgres-cluster';
import { type BenchCase, fmt, type Row } from '../harness';

/**
 * The hub at scale (docs/sync.md, "Hosted hub"): simulated devices pushing and pulling over the
 * sync API against one and two `npm run hub` processes on one PostgreSQL database and against the
 * SQLite hub storage in a process of its own; then the first sync of one business with one and
 * with a thousand businesses in the database. PostgreSQL is a throwaway cluster of the bench's own,
 * durable (fsync on) as in production. BENCH_HUB_SCALE multiplies the rounds and the businesses.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..', '..');
const SCALE = Number(process.env.BENCH_HUB_SCALE ?? 1);
const DEVICE_COUNTS = [10, 100];
const DEVICES_PER_BUSINESS = 5;
/** Each device pushes this many batches, pulling until caught up after each. */
const ROUNDS = Math.max(1, Math.round(4 * SCALE));
const BATCH = 250;
const BUSINESSES = Math.max(2, Math.round(1000 * SCALE));
const RECORDS = 1000;
const FIRST_SYNC_SAMPLES = 9;
const INGEST_DEVICES = 10;
const INGEST_PUSHES = Math.max(1, Math.round(8 * SCALE));
const INGEST_BATCH = 500;
const PULL_LIMIT = 1000;

const HEADERS = { 'content-type': 'application/json', [SYNC_SCHEMA_HEADER]: String(SCHEMA_VERSION) };

interface Device {
  accountId: string;
  credential: string;
  node: string;
}

interface HubProcess {
  url: string;
  stop(): Promise<void>;
}

const hub: BenchCase = async ({ log }) => {
  const rows: Row[] = [];
  const work = mkdtempSync(path.join(tmpdir(), 'shopdesk-bench-hub-'));
  log('hub: starting a throwaway PostgreSQL…');
  const postgres = await startThrowawayPostgres({ durable: true });
  const admin = new pg.Pool({ connectionString: postgres.url, max: 2 });
  const database = async (name: string) => {
    await admin.query(`CREATE DATABASE ${name}`);
    const url = postgres.url.replace(/\/postgres$/, `/${name}`);
    const pool = new pg.Pool({ connectionString: url, max: 4 });
    await migratePgHub(pool);
    return { url, pool };
  };
  try {
    for (const processes of [1, 2]) {
      const { url, pool } = await database(`hub_${processes}p`);
      const devices = await joinDevices(pgHubStorage(pool), `pg${processes}`);
      await pool.end();
      const hubs = await Promise.all(
        Array.from({ length: processes }, () =>
          startHubProcess(['server/hub.ts', '--database-url', url, '--port', '0']),
        ),
      );
      rows.push(
        ...(await driveAll(
          `PostgreSQL, ${processes} hub process${processes > 1 ? 'es' : ''}`,
          hubs,
          devices,
          log,
        )),
      );
      for (const h of hubs) await h.stop();
    }

    const sqliteDir = path.join(work, 'sqlite-hub');
    const opened = await openDatabase(sqliteDir);
    const sqliteDevices = await joinDevices(sqliteHubStorage(opened.db, opened.sqlite), 'sq');
    await opened.close();
    const sqliteHub = await startHubProcess(['bench/sqlite-hub.ts', sqliteDir]);
    rows.push(...(await driveAll('SQLite hub, 1 process', [sqliteHub], sqliteDevices, log)));
    await sqliteHub.stop();

    log('hub: push ingest in-process, PostgreSQL and SQLite storage…');
    const ingestDb = await database('hub_ingest');
    const pgIngest = await storageIngest(pgHubStorage(ingestDb.pool));
    await ingestDb.pool.end();
    const ingestSqlite = await openDatabase(path.join(work, 'sqlite-ingest'));
    const sqliteIngest = await storageIngest(sqliteHubStorage(ingestSqlite.db, ingestSqlite.sqlite));
    await ingestSqlite.close();
    rows.push(
      {
        case: `hub: push ingest, storage only (in-process), ${INGEST_DEVICES} devices × ${INGEST_PUSHES} pushes of ${INGEST_BATCH}, PostgreSQL`,
        figure: `${fmt(pgIngest, 0)} changes/s`,
        target: '',
        pass: null,
      },
      {
        case: 'hub: the same, SQLite',
        figure: `${fmt(sqliteIngest, 0)} changes/s`,
        target: '',
        pass: null,
      },
    );

    rows.push(...(await firstSync(await database('hub_first_sync'), log)));
  } finally {
    await admin.end();
    await postgres.stop();
    rmSync(work, { recursive: true, force: true });
  }
  return rows;
};
export default hub;

/**
 * The storage's push alone, without HTTP or pulls: INGEST_DEVICES devices (in businesses of
 * DEVICES_PER_BUSINESS) each push INGEST_PUSHES batches of INGEST_BATCH new customers, all at once.
 */
export async function storageIngest(storage: HubStorage): Promise<number> {
  const service = new Hub(storage, systemClock);
  try {
    const devices = [];
    for (let d = 0; d < INGEST_DEVICES; d++) {
      const accountId = `acct_ingest_${Math.floor(d / DEVICES_PER_BUSINESS)}`;
      if (d % DEVICES_PER_BUSINESS === 0) await service.adopt(accountId, 'Office');
      const pairing = await service.createPairing(accountId, 'http://hub.invalid');
      const { device } = await service.join(pairing.pairing_code, `Device ${d}`);
      const node = `ingest${String(d).padStart(5, '0')}`;
      const batches = Array.from({ length: INGEST_PUSHES }, (_, round) =>
        pushChanges({ accountId, credential: '', node }, round, INGEST_BATCH),
      );
      devices.push({ device, batches });
    }
    const started = performance.now();
    let accepted = 0;
    await Promise.all(
      devices.map(async ({ device, batches }) => {
        for (const changes of batches) {
          const result = await service.push(device, changes);
          accepted += result.accepted;
        }
      }),
    );
    const seconds = (performance.now() - started) / 1000;
    const sent = INGEST_DEVICES * INGEST_PUSHES * INGEST_BATCH;
    if (accepted !== sent) throw new Error(`the hub accepted ${accepted} of ${sent} changes`);
    return accepted / seconds;
  } finally {
    service.shutdown();
  }
}

/** Businesses of DEVICES_PER_BUSINESS devices for each device count, joined with real pairing codes. */
async function joinDevices(storage: HubStorage, tag: string): Promise<Map<number, Device[]>> {
  const service = new Hub(storage, systemClock);
  const byCount = new Map<number, Device[]>();
  try {
    for (const count of DEVICE_COUNTS) {
      const devices: Device[] = [];
      for (let b = 0; b < count / DEVICES_PER_BUSINESS; b++) {
        const accountId = `acct_${tag}_${count}_${b}`;
        await service.adopt(accountId, 'Office');
        for (let d = 0; d < DEVICES_PER_BUSINESS; d++) {
          const pairing = await service.createPairing(accountId, 'http://hub.invalid');
          const { credential } = await service.join(pairing.pairing_code, `Device ${d}`);
          devices.push({
            accountId,
            credential,
            node: `bench${tag}${String(devices.length).padStart(5, '0')}`,
          });
        }
      }
      byCount.set(count, devices);
    }
  } finally {
    service.shutdown();
  }
  return byCount;
}

async function driveAll(
  target: string,
  hubs: HubProcess[],
  devices: Map<number, Device[]>,
  log: (line: string) => void,
): Promise<Row[]> {
  const rows: Row[] = [];
  for (const count of DEVICE_COUNTS) {
    log(`hub: ${target}, ${count} devices…`);
    const result = await drive(
      hubs.map((h) => h.url),
      devices.get(count)!,
    );
    rows.push({
      case: `hub: ${target}, ${count} devices (${count / DEVICES_PER_BUSINESS} businesses)`,
      figure: `${fmt(result.perSecond, 0)} changes/s; pull p50 ${fmt(result.p50)} ms, p99 ${fmt(result.p99)} ms`,
      target: '',
      pass: null,
    });
  }
  return rows;
}

/**
 * Every device at once: ROUNDS times, push BATCH new customers, then pull its business from its
 * cursor until caught up. Devices spread over the hub processes in turn, as a load balancer would.
 * The figure is changes accepted per second of wall time, with all the pulls going on meanwhile.
 */
async function drive(urls: string[], devices: Device[]) {
  const bodies = devices.map((device) =>
    Array.from({ length: ROUNDS }, (_, round) => pushBody(device, round)),
  );
  const pulls: number[] = [];
  let accepted = 0;
  const started = performance.now();
  await Promise.all(
    devices.map(async (device, d) => {
      const url = urls[d % urls.length]!;
      const auth = { ...HEADERS, authorization: `Bearer ${device.credential}` };
      let cursor = 0;
      for (const body of bodies[d]!) {
        const pushed = await fetch(`${url}/api/sync/v1/push`, { method: 'POST', headers: auth, body });
        if (!pushed.ok) throw new Error(`push: ${pushed.status} ${await pushed.text()}`);
        const result = (await pushed.json()) as { accepted: number };
        accepted += result.accepted;
        for (;;) {
          const asked = performance.now();
          const pulled = await fetch(`${url}/api/sync/v1/pull?cursor=${cursor}&limit=${PULL_LIMIT}`, {
            headers: auth,
          });
          if (!pulled.ok) throw new Error(`pull: ${pulled.status} ${await pulled.text()}`);
          const page = (await pulled.json()) as { cursor: number; has_more: boolean };
          pulls.push(performance.now() - asked);
          cursor = page.cursor;
          if (!page.has_more) break;
        }
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  const sent = devices.length * ROUNDS * BATCH;
  if (accepted !== sent) throw new Error(`the hub accepted ${accepted} of ${sent} changes`);
  return { perSecond: accepted / seconds, p50: percentile(pulls, 0.5), p99: percentile(pulls, 0.99) };
}

function customerValues(accountId: string, id: string, email: string, name: string) {
  return {
    id,
    account_id: accountId,
    name,
    email,
    email_lower: email,
    phone: '+44 20 7946 0958',
    address: '12 High Street, Testville',
    created_at: '2026-11-22T09:00:00Z',
    updated_at: '2026-11-22T09:00:00Z',
    _deleted: 0,
  };
}

function pushBody(device: Device, round: number): string {
  return JSON.stringify({ changes: pushChanges(device, round, BATCH) });
}

function pushChanges(device: Device, round: number, size: number) {
  return Array.from({ length: size }, (_, i) => {
    const n = round * size + i;
    const id = newId('cus');
    const email = `${device.node}-${n}@example.com`;
    const hlc = formatHlc({ ms: Date.now(), counter: n }, device.node);
    const v = customerValues(device.accountId, id, email, `Customer ${device.node} ${n}`);
    return {
      local_seq: n + 1,
      table: 'customers',
      pk: JSON.stringify([id]),
      state: { v, c: Object.fromEntries(Object.keys(v).map((column) => [column, hlc])) },
    };
  });
}

/**
 * A new device's first sync of one business of RECORDS customers (a paged pull from 0 through a
 * hub process), with that business alone in the database and then with BUSINESSES of RECORDS each.
 */
async function firstSync(db: { url: string; pool: pg.Pool }, log: (line: string) => void): Promise<Row[]> {
  const target = 'acct_bench_00001';
  await fillBusinesses(db.pool, 1, 1);
  const service = new Hub(pgHubStorage(db.pool), systemClock);
  const pairing = await service.createPairing(target, 'http://hub.invalid');
  const { credential } = await service.join(pairing.pairing_code, 'New laptop');
  service.shutdown();
  const hubProcess = await startHubProcess(['server/hub.ts', '--database-url', db.url, '--port', '0']);
  try {
    log('hub: first sync, one business in the database…');
    const alone = await timeFirstSync(hubProcess.url, credential);
    log(`hub: filling ${BUSINESSES} businesses of ${RECORDS} records…`);
    const filling = performance.now();
    await fillBusinesses(db.pool, 2, BUSINESSES);
    await db.pool.query('VACUUM ANALYZE hub_rows');
    const fillSeconds = (performance.now() - filling) / 1000;
    log('hub: first sync, all businesses in the database…');
    const crowded = await timeFirstSync(hubProcess.url, credential);
    const ratio = crowded / alone;
    const total = (BUSINESSES * RECORDS).toLocaleString('en');
    return [
      {
        case: `hub: first sync of one business (${RECORDS.toLocaleString('en')} records), alone in PostgreSQL (median of ${FIRST_SYNC_SAMPLES})`,
        figure: `${fmt(alone)} ms`,
        target: '',
        pass: null,
      },
      {
        case: `hub: the same, with ${BUSINESSES.toLocaleString('en')} businesses (${total} rows, loaded in ${fmt(fillSeconds, 0)} s)`,
        figure: `${fmt(crowded)} ms`,
        target: '',
        pass: null,
      },
      {
        case: 'hub: first sync with all businesses ÷ alone',
        figure: fmt(ratio, 2),
        target: '≤ 1.5',
        pass: ratio <= 1.5,
      },
    ];
  } finally {
    await hubProcess.stop();
    await db.pool.end();
  }
}

async function timeFirstSync(url: string, credential: string): Promise<number> {
  const headers = { ...HEADERS, authorization: `Bearer ${credential}` };
  const samples: number[] = [];
  // The first pull of a fresh process compiles its code paths: warm up before timing.
  for (let s = -1; s < FIRST_SYNC_SAMPLES; s++) {
    const started = performance.now();
    let cursor = 0;
    let received = 0;
    for (;;) {
      const response = await fetch(`${url}/api/sync/v1/pull?cursor=${cursor}&limit=${PULL_LIMIT}`, {
        headers,
      });
      if (!response.ok) throw new Error(`pull: ${response.status} ${await response.text()}`);
      const page = (await response.json()) as { rows: unknown[]; cursor: number; has_more: boolean };
      received += page.rows.length;
      cursor = page.cursor;
      if (!page.has_more) break;
    }
    if (s >= 0) samples.push(performance.now() - started);
    if (received !== RECORDS) throw new Error(`first sync received ${received} of ${RECORDS} rows`);
  }
  return percentile(samples, 0.5);
}

/** Businesses `from`..`to` (acct_bench_00001, …) of RECORDS customers each, written in one statement. */
async function fillBusinesses(pool: pg.Pool, from: number, to: number): Promise<void> {
  const values = customerValues('{a}', 'cus_{a}_{i}', 'c{i}@example.com', 'Customer {i}');
  const hlc = formatHlc({ ms: Date.parse('2026-11-22T09:00:00Z'), counter: 0 }, 'benchfill');
  const clocks = JSON.stringify(Object.fromEntries(Object.keys(values).map((column) => [column, hlc])));
  await pool.query(
    `INSERT INTO hub_businesses (account_id, last_seq, created_at)
     SELECT 'acct_bench_' || lpad(b::text, 5, '0'), $3, '2026-11-22T09:00:00Z' FROM generate_series($1::int, $2::int) b`,
    [from, to, RECORDS],
  );
  await pool.query(
    `INSERT INTO hub_rows (account_id, tbl, pk, seq, vals, clocks, natural_key)
     SELECT a, 'customers', '["cus_' || a || '_' || i || '"]', i,
       replace(replace($3, '{a}', a), '{i}', i::text), $4, 'c' || i || '@example.com'
     FROM generate_series($1::int, $2::int) b
     CROSS JOIN LATERAL (SELECT 'acct_bench_' || lpad(b::text, 5, '0') AS a) named
     CROSS JOIN generate_series(1, $5::int) i`,
    [from, to, JSON.stringify(values), clocks, RECORDS],
  );
}

/** `npm run hub` (or the SQLite hub) as a child process on a free port; resolves once it serves. */
async function startHubProcess(args: string[]): Promise<HubProcess> {
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repo,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
  // Read to the end, request logs included: a full pipe would stall the hub.
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on('line', (line) => {
      const entry = JSON.parse(line) as { msg?: string; url?: string };
      if (entry.msg === 'hosted hub ready' && entry.url) resolve(entry.url);
    });
    void exited.then((code) => reject(new Error(`hub process ${args[0]} exited ${code} before serving`)));
  });
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)]!;
}
