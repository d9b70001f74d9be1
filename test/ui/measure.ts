/**
 * The UI figures for BENCHMARKS-UI.md: gzip size of what the first load fetches, and how long the
 * dashboard and the customer list take to show their data in Chromium on the 100,000-customer bench
 * account. Not a test (tests never assert on timings): run `npx tsx test/ui/measure.ts`.
 */
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { DATA_NOW, ensureBenchData } from '../../bench/generate';
import { createSignInToken } from '../../server/domain/sessions';
import { startServer } from '../../server/index';
import { manualClock } from '../../server/lib/clock';
import { ensureRendererBuilt, launchChromium } from './browser';

const ROOT = path.resolve(import.meta.dirname, '../..');
const RUNS = 7;

function firstLoadBytes() {
  const dist = path.join(ROOT, 'dist/renderer');
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
  const files = ['index.html', ...assets];
  let raw = 0;
  let gzip = 0;
  for (const file of files) {
    const bytes = readFileSync(path.join(dist, file));
    raw += bytes.length;
    gzip += gzipSync(bytes, { level: 9 }).length;
  }
  return { files, raw, gzip };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function main() {
  ensureRendererBuilt();
  const bundle = firstLoadBytes();
  const bench = await ensureBenchData(path.join(ROOT, 'bench/.data'), console.log);
  // A copy, so sign-in rows and migrations never touch the bench engineer's cached data set.
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-ui-bench-'));
  for (const file of readdirSync(bench.dataDir).filter((f) => f.endsWith('.sqlite'))) {
    copyFileSync(path.join(bench.dataDir, file), path.join(dataDir, file));
  }
  const server = await startServer({ dataDir, port: 0, clock: manualClock(new Date(DATA_NOW)) });
  const browser = await launchChromium();
  const timings = { dashboard: [] as number[], customers: [] as number[] };
  try {
    for (let run = 0; run < RUNS; run++) {
      const context = await browser.newContext({ viewport: { width: 1360, height: 900 } });
      const page = await context.newPage();
      const token = await createSignInToken(server.ctx, bench.accountId);
      const started = performance.now();
      await page.goto(`${server.url}/sign-in?token=${token}`);
      await page.waitForSelector('[data-testid="dashboard-loaded"]', { timeout: 60_000 });
      timings.dashboard.push(performance.now() - started);
      const listStarted = performance.now();
      await page.goto(`${server.url}/#/customers`);
      await page.waitForSelector('table tbody tr', { timeout: 60_000 });
      timings.customers.push(performance.now() - listStarted);
      await context.close();
    }
  } finally {
    await browser.close();
    await server.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  console.log(
    JSON.stringify(
      {
        first_load: { files: bundle.files, raw_bytes: bundle.raw, gzip_bytes: bundle.gzip },
        account: bench.counts,
        runs: RUNS,
        dashboard_ms: {
          median: Math.round(median(timings.dashboard)),
          all: timings.dashboard.map(Math.round),
        },
        customers_first_page_ms: {
          median: Math.round(median(timings.customers)),
          all: timings.customers.map(Math.round),
        },
      },
      null,
      2,
    ),
  );
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
