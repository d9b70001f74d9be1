import { createReadStream, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { createAccount } from '../server/domain/accounts';
import { createSignInToken } from '../server/domain/sessions';
import { startServer } from '../server/index';
import { jobberExport } from '../test/helpers/client-files';

/**
 * What an import keeps in memory, as opposed to what V8 has not collected yet:
 * `node --expose-gc --import tsx bench/import-live-heap.ts 50000` runs upload, dry run, import and
 * undo on a server in this process, collects garbage every 0.5 s and prints the largest heap left
 * after a collection (the live heap) beside the peaks of RSS and heap. A live heap that does not
 * grow with the file says nothing is held per row; the bench's peak RSS (bench/cases/import.ts)
 * also counts garbage V8 collects lazily, more of it the longer a run allocates.
 */
const ROWS = Number(process.argv[2] ?? 10_000);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc');
const MB = 1024 * 1024;
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-live-heap-'));
const file = path.join(dataDir, 'clients.csv');
writeFileSync(file, jobberExport(ROWS).csv);
const server = await startServer({ dataDir, host: '127.0.0.1', port: 0, backups: { schedule: false } });
try {
  const account = await createAccount(server.ctx, {
    businessName: 'Moving In',
    plan: 'platform',
    apiPlan: 'growth',
  });
  const signedIn = await fetch(
    `${server.url}/sign-in?token=${await createSignInToken(server.ctx, account.id)}`,
    {
      redirect: 'manual',
    },
  );
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const portal = `${server.url}/api/portal/${account.id}/customer-imports`;
  const step = async (name: string, start: () => Promise<Response>) => {
    gc();
    let live = 0;
    const peak = { rss: 0, heapUsed: 0 };
    const collect = setInterval(() => {
      gc();
      live = Math.max(live, process.memoryUsage().heapUsed);
    }, 500);
    const sample = setInterval(() => {
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.heapUsed = Math.max(peak.heapUsed, now.heapUsed);
    }, 20);
    const began = performance.now();
    let answer = await (await start()).json();
    while (answer.run?.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = await (await fetch(`${portal}/${answer.id}`, { headers: { cookie } })).json();
    }
    clearInterval(collect);
    clearInterval(sample);
    const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
    console.log(
      `${ROWS} rows, ${name}: ${((performance.now() - began) / 1000).toFixed(1)} s, live heap ${mb(live)}, peak heap ${mb(peak.heapUsed)}, peak RSS ${mb(peak.rss)} ${answer.run?.state ?? ''}`,
    );
    return answer;
  };
  const uploaded = await step('upload', () =>
    fetch(portal, {
      method: 'POST',
      headers: { cookie, 'content-type': 'text/csv' },
      body: Readable.toWeb(createReadStream(file)) as ReadableStream,
      duplex: 'half',
    } as RequestInit),
  );
  const headers = { cookie, 'content-type': 'application/json' };
  const body = JSON.stringify({ columns: uploaded.columns, on_match: 'skip' });
  await step('dry run', () => fetch(`${portal}/${uploaded.id}/dry-run`, { method: 'POST', headers, body }));
  await step('import', () => fetch(`${portal}/${uploaded.id}/import`, { method: 'POST', headers, body }));
  await step('undo', () => fetch(`${portal}/${uploaded.id}/undo`, { method: 'POST', headers, body: '{}' }));
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
