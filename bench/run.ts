import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { DATA_NOW, ensureBenchData } from './generate';
import type { BenchCase, CaseContext, Row } from './harness';
import { buildBenchProcessesIfStale, startBenchServer, startFloorProcess } from './processes';

/**
 * npm run bench [-- case-name …]: generates (or reuses) the data set, starts the real server on a
 * copy of it (compiled, in a process of its own: bench/processes.ts), and runs every case in bench/cases/ (or the named ones). A case is a file there whose
 * default export is a BenchCase; adding one needs no change here.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const DATA_ROOT = path.join(here, '.data');
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
function machine(): string {
  const cpuinfo = readFileSync('/proc/cpuinfo', 'utf8');
  const model = /model name\s*:\s*(.+)/.exec(cpuinfo)?.[1] ?? os.cpus()[0]?.model ?? 'unknown CPU';
  return `${os.availableParallelism()} CPUs (nproc), ${model.trim()}, Node ${process.version}, ${os.platform()} ${os.release()}`;
}

function printTable(rows: Row[]): void {
  const headers = ['case', 'figure', 'target', 'result'];
  const cells = rows.map((r) => [
    r.case,
    r.figure,
    r.target,
    r.pass === null ? '' : r.pass ? 'PASS' : 'MISS',
  ]);
  const widths = headers.map((h, i) => Math.max(h.length, ...cells.map((c) => c[i]!.length)));
  const line = (values: string[]) => `| ${values.map((v, i) => v.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(headers));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const c of cells) console.log(line(c));
}

async function main() {
  const wanted = process.argv.slice(2);
  const log = (text: string) => console.error(text);
  const data = await ensureBenchData(DATA_ROOT, log);
  // The server serves the UI from dist/renderer, which a fresh clone has not built yet.
  execFileSync(process.execPath, [path.join(here, '../scripts/build-renderer-if-missing.mjs')], {
    stdio: 'inherit',
  });
  await buildBenchProcessesIfStale(log);

  // Cases write (invoices); they work on a copy so the cached data set stays as generated. A folder
  // per run: two runs in one worktree (one profiling, say) must not share files.
  const workDir = mkdtempSync(path.join(DATA_ROOT, 'run-'));
  copyFileSync(path.join(data.dataDir, 'shopdesk.sqlite'), path.join(workDir, 'shopdesk.sqlite'));

  const server = await startBenchServer({
    dataDir: workDir,
    dataNow: DATA_NOW,
    logger: process.env.BENCH_LOG === '1',
  });
  const bareFloor = await startFloorProcess(workDir, data.accountId);
  const portalKey = await server.call('createKey', data.accountId, 'portal');
  const ctx: CaseContext = {
    server,
    account: { id: data.accountId, portalKey, counts: data.counts },
    dataFile: path.join(data.dataDir, 'shopdesk.sqlite'),
    bareFloor,
    seconds: SECONDS,
    log,
  };

  console.log(`Machine: ${machine()}; load average ${os.loadavg()[0]!.toFixed(1)} at the start.`);
  console.log(
    `Data: ${Object.entries(data.counts)
      .map(([t, n]) => `${t} ${n.toLocaleString('en')}`)
      .join(', ')}`,
  );
  console.log(
    `Load cases: autocannon in the bench's process, server and floor in their own, ${SECONDS} s each, 10 connections (latency cases: 1).\n`,
  );

  const casesBegan = performance.now();
  const files = readdirSync(path.join(here, 'cases'))
    .filter((f) => f.endsWith('.ts'))
    .sort();
  const rows: Row[] = [];
  const durations: string[] = [];
  try {
    for (const file of files) {
      const name = file.replace(/\.ts$/, '');
      if (wanted.length && !wanted.includes(name)) continue;
      log(`running ${name}…`);
      const began = performance.now();
      const run = (await import(pathToFileURL(path.join(here, 'cases', file)).href)).default as BenchCase;
      let caseRows: Row[];
      try {
        caseRows = await run(ctx);
      } catch (error) {
        caseRows = [{ case: name, figure: `failed: ${(error as Error).message}`, target: '', pass: false }];
      }
      rows.push(...caseRows);
      // As each case ends: a run stopped part way (a long one on a loaded machine) still says what it measured.
      for (const row of caseRows) log(`  ${row.case}: ${row.figure}${row.target ? ` (${row.target})` : ''}`);
      durations.push(`${name} ${Math.round((performance.now() - began) / 1000)} s`);
    }
  } finally {
    await bareFloor.close();
    await server.close();
    rmSync(workDir, { recursive: true, force: true });
  }
  printTable(rows);
  // How long a run takes (the data set's generation, once, not included), and where the time went.
  console.log(
    `\nCases took ${Math.round((performance.now() - casesBegan) / 1000)} s: ${durations.join(', ')}.`,
  );
  console.log(
    `Load average at the end: ${os
      .loadavg()
      .map((n) => n.toFixed(1))
      .join(', ')}.`,
  );
  const missed = rows.filter((r) => r.pass === false).length;
  console.log(`\n${missed === 0 ? 'All targets met.' : `${missed} target(s) missed.`}`);
}

await main();
