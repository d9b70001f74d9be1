import { createReadStream, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Agent, fetch } from 'undici';
import { createAccount } from '../server/domain/accounts';
import { createSignInToken } from '../server/domain/sessions';
import { startServer } from '../server/index';
import { keepHeapNearLive } from '../server/lib/heap-growth';
import { jobberExport } from '../test/helpers/client-files';

/**
 * Where an import's memory goes: `node --expose-gc --import tsx bench/import-live-heap.ts 50000`
 * runs upload, dry run, import and undo on a server in this process (set up as the server's entry
 * points set it up) and prints, for each step, its time and the peaks of RSS, of the heap, of
 * what is neither heap nor Buffers (SQLite's caches and statements, the allocator's free lists:
 * RSS less the heap's committed size and external memory) and of the write-ahead log; then,
 * after two full collections, RSS and the live heap. `--no-tune` leaves V8's heap growth as it is.
 */
const ROWS = Number(process.argv[2] ?? 10_000);
if (!process.argv.includes('--no-tune')) keepHeapNearLive();
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('Run with node --expose-gc');
const MB = 1024 * 1024;
const mb = (bytes: number) => `${(bytes / MB).toFixed(0)} MB`;
const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-live-heap-'));
const file = path.join(dataDir, 'clients.csv');
writeFileSync(file, jobberExport(ROWS).csv);
const walSize = () =>
  statSync(path.join(dataDir, 'shopdesk.sqlite-wal'), { throwIfNoEntry: false })?.size ?? 0;
// Short keep-alive: a step can outlast the server's idle timeout, and a request sent on a
// connection the server is closing fails.
const dispatcher = new Agent({ keepAliveTimeout: 1000, keepAliveMaxTimeout: 1000 });
type Answer = { id: string; columns: unknown[]; run: { state: string } | null };
const server = await startServer({ dataDir, host: '127.0.0.1', port: 0, backups: { schedule: false } });
try {
  const account = await createAccount(server.ctx, {
    businessName: 'Moving In',
    plan: 'platform',
    apiPlan: 'growth',
  });
  const token = await createSignInToken(server.ctx, account.id);
  const signedIn = await fetch(`${server.url}/sign-in?token=${token}`, { redirect: 'manual', dispatcher });
  const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const portal = `${server.url}/api/portal/${account.id}/customer-imports`;
  const step = async (name: string, start: () => Promise<Answer>) => {
    gc();
    const peak = { rss: 0, heap: 0, other: 0, wal: 0 };
    const sample = setInterval(() => {
      const now = process.memoryUsage();
      peak.rss = Math.max(peak.rss, now.rss);
      peak.heap = Math.max(peak.heap, now.heapUsed);
      peak.other = Math.max(peak.other, now.rss - now.heapTotal - now.external);
      peak.wal = Math.max(peak.wal, walSize());
    }, 20);
    const began = performance.now();
    let answer = await start();
    while (answer.run?.state === 'running') {
      await new Promise((resolve) => setTimeout(resolve, 100));
      answer = (await (
        await fetch(`${portal}/${answer.id}`, { headers: { cookie }, dispatcher })
      ).json()) as Answer;
    }
    clearInterval(sample);
    const seconds = ((performance.now() - began) / 1000).toFixed(1);
    gc();
    gc();
    const after = process.memoryUsage();
    console.log(
      `${ROWS} rows, ${name}: ${seconds} s, peak RSS ${mb(peak.rss)}, peak heap ${mb(peak.heap)}, peak other ${mb(peak.other)}, peak WAL ${mb(peak.wal)}; after GC: RSS ${mb(after.rss)}, live heap ${mb(after.heapUsed)} ${answer.run?.state ?? ''}`,
    );
    return answer;
  };
  const post = async (url: string, init: Parameters<typeof fetch>[1]) =>
    (await (await fetch(url, { method: 'POST', dispatcher, ...init })).json()) as Answer;
  const uploaded = await step('upload', () =>
    post(portal, {
      headers: { cookie, 'content-type': 'text/csv' },
      body: createReadStream(file),
      duplex: 'half',
    }),
  );
  const headers = { cookie, 'content-type': 'application/json' };
  const body = JSON.stringify({ columns: uploaded.columns, on_match: 'skip' });
  await step('dry run', () => post(`${portal}/${uploaded.id}/dry-run`, { headers, body }));
  await step('import', () => post(`${portal}/${uploaded.id}/import`, { headers, body }));
  await step('undo', () => post(`${portal}/${uploaded.id}/undo`, { headers, body: '{}' }));
} finally {
  await server.close();
  rmSync(dataDir, { recursive: true, force: true });
}
