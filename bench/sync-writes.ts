import { copyFileSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createKey } from '../server/domain/api-keys';
import { type RunningServer, startServer } from '../server/index';
import { invoiceBodies } from './cases/invoices-create';
import { captureCost, hubIngest, inProcessPeer } from './cases/sync';
import { ensureBenchData } from './generate';
import { assertHealthy, benchClock, load as drive, fmt } from './harness';

/**
 * The two write-side parts of the sync case alone, without the first sync and the edit latency
 * that take most of its time: invoice creation standalone against a paired hub (online and
 * offline), then hub ingest. `tsx bench/sync-writes.ts [capture|cpu|ingest]…` (capture and
 * ingest by default); BENCH_SCALE and BENCH_SECONDS as for `npm run bench`; run under
 * `node --cpu-prof` to profile. `cpu` measures the process's CPU time per invoice in each mode,
 * the three alternating, which a loaded machine disturbs far less than requests per second; the
 * ingest prints its CPU per change the same way.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const load = () =>
  os
    .loadavg()
    .map((n) => n.toFixed(1))
    .join(' ');

async function main() {
  const parts = process.argv.slice(2);
  const wants = (part: string) => (parts.length === 0 && part !== 'cpu') || parts.includes(part);
  const log = (text: string) => console.error(text);
  const data = await ensureBenchData(path.join(here, '.data'), log);
  const dataFile = path.join(data.dataDir, 'shopdesk.sqlite');
  const work = mkdtempSync(path.join(here, '.data', 'sync-writes-'));
  const folder = (name: string) => {
    const dir = path.join(work, name);
    mkdirSync(dir);
    copyFileSync(dataFile, path.join(dir, 'shopdesk.sqlite'));
    return dir;
  };
  const servers: RunningServer[] = [];
  const start = async (dir: string) => {
    const server = await startServer({
      dataDir: dir,
      host: '127.0.0.1',
      port: 0,
      clock: benchClock(),
      backups: { schedule: false },
    });
    servers.push(server);
    return server;
  };
  try {
    const hubDir = folder('hub');
    const hub = await start(hubDir);
    const hubKey = (await createKey(hub.ctx, data.accountId, { kind: 'portal' })).key;
    log('pairing…');
    await hub.ctx.sync!.pair(data.accountId, { hubUrl: hub.url });
    console.log(`load average at the start: ${load()}`);
    if (wants('capture')) {
      const standalone = await start(folder('standalone'));
      const key = (await createKey(standalone.ctx, data.accountId, { kind: 'portal' })).key;
      const account = { id: data.accountId, counts: data.counts };
      const r = await captureCost(
        { url: standalone.url, key },
        { peer: inProcessPeer(hub), key: hubKey },
        account,
        SECONDS,
      );
      console.log(
        `invoices/create req/s: standalone ${fmt(r.standalone, 0)} (${r.range.standalone}), paired ${fmt(r.paired, 0)} (${r.range.paired}), offline ${fmt(r.offline, 0)} (${r.range.offline}); paired ÷ standalone ${fmt(r.paired / r.standalone, 2)}, offline ÷ standalone ${fmt(r.offline / r.standalone, 2)}; load ${load()}`,
      );
    }
    if (wants('cpu')) {
      const standalone = await start(folder('standalone-cpu'));
      const key = (await createKey(standalone.ctx, data.accountId, { kind: 'portal' })).key;
      const body = invoiceBodies(data.counts.customers!);
      const perInvoice = async (server: RunningServer, portalKey: string, online = false) => {
        const cpu = process.cpuUsage();
        const result = await drive({
          url: `${server.url}/api/portal/${data.accountId}/invoices/create`,
          method: 'POST',
          headers: { authorization: `Bearer ${portalKey}` },
          body,
          seconds: SECONDS,
        });
        // Online, what the hub's own install does for those invoices counts too.
        if (online) await hub.ctx.sync!.syncNow(data.accountId);
        assertHealthy('POST /invoices/create', result);
        const used = process.cpuUsage(cpu);
        return (used.user + used.system) / 1000 / result.requests;
      };
      const modes = { standalone: [] as number[], paired: [] as number[], offline: [] as number[] };
      for (let round = 0; round < 4; round++) {
        modes.standalone.push(await perInvoice(standalone, key));
        modes.paired.push(await perInvoice(hub, hubKey, true));
        hub.setOnline(false);
        modes.offline.push(await perInvoice(hub, hubKey));
        hub.setOnline(true);
        await hub.ctx.sync!.syncNow(data.accountId);
      }
      const median = (values: number[]) => [...values].sort((a, b) => a - b)[values.length >> 1]!;
      const list = (values: number[]) => values.map((v) => fmt(v, 2)).join(' / ');
      console.log(
        `CPU ms per invoice (rounds; the first warms up): standalone ${list(modes.standalone)}, paired ${list(modes.paired)}, offline ${list(modes.offline)}; median standalone ÷ paired ${fmt(median(modes.standalone) / median(modes.paired), 2)}, standalone ÷ offline ${fmt(median(modes.standalone) / median(modes.offline), 2)}; load ${load()}`,
      );
    }
    if (wants('ingest')) {
      const cpu = process.cpuUsage();
      const ingest = await hubIngest(
        inProcessPeer(hub),
        data.accountId,
        path.join(hubDir, 'shopdesk.sqlite'),
      );
      // Until the hub's own install has applied what arrived: that is part of what a push costs it.
      await hub.ctx.sync!.syncNow(data.accountId);
      const used = process.cpuUsage(cpu);
      console.log(
        `hub ingest: ${fmt(ingest.perSecond, 0)} changes/s, CPU ${fmt((used.user + used.system) / 1000 / ingest.changes, 3)} ms per change (the devices' requests included); load ${load()}`,
      );
    }
  } finally {
    for (const server of servers.reverse()) await server.close();
    rmSync(work, { recursive: true, force: true });
  }
}

await main();
