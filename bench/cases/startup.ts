import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { ensureBenchData } from '../generate';
import { type BenchCase, fmt, type Row } from '../harness';

const MB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '../..');
const RUNS = Number(process.env.BENCH_STARTUP_RUNS ?? 3);
/** How long a started process sits unused before its resident memory is read. */
const IDLE_MS = 3000;

interface Start {
  /** From spawn to the first answer received. */
  ms: number;
  rssBytes: number;
}

function rssOf(pid: number): number {
  const kb = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb ?? 0) * 1024;
}

function stopped(child: ChildProcess): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });
}

/** Starts a process, waits for the URL it prints, times its first answer at `route`, then reads its RSS. */
async function timeStart(args: string[], urlPattern: RegExp, route: string): Promise<Start> {
  const began = performance.now();
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stderr.on('data', (chunk) => {
    output += chunk;
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = urlPattern.exec(output);
        if (match) resolve(match[1]!);
      });
      child.once('exit', (code) => reject(new Error(`${args.join(' ')} exited (${code}): ${output}`)));
    });
    const response = await fetch(`${url}${route}`);
    if (response.status !== 200) throw new Error(`${route}: HTTP ${response.status}`);
    await response.arrayBuffer();
    const ms = performance.now() - began;
    await new Promise((resolve) => setTimeout(resolve, IDLE_MS));
    return { ms, rssBytes: rssOf(child.pid!) };
  } finally {
    child.removeAllListeners('exit');
    await stopped(child);
  }
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/**
 * Cold start of `npm run serve` (scripts/serve.mjs: the checks it makes, then the compiled server) to its
 * first answer, against the floor: a bare Fastify + better-sqlite3 process answering one route from the
 * same file. Both run in turn on one copy of the data set, at 10,000 and at 100,000 customers; the
 * ratio should not grow with the file. Then each one's resident memory after sitting idle.
 */
const startupCase: BenchCase = async ({ dataFile, log }) => {
  const dataRoot = path.dirname(path.dirname(dataFile));
  const small = await ensureBenchData(dataRoot, log, 0.1);
  // The bundles are built once here, so no run below includes a build.
  for (const script of ['scripts/build-server.mjs', 'scripts/build-renderer-if-missing.mjs'])
    execFileSync(process.execPath, [script], { cwd: root, stdio: 'inherit' });
  const rows: Row[] = [];
  const ratios: number[] = [];
  for (const [label, file] of [
    [
      `${(small.counts.customers ?? 0).toLocaleString('en')} customers`,
      path.join(small.dataDir, 'shopdesk.sqlite'),
    ],
    ['100,000 customers', dataFile],
  ] as const) {
    const dir = mkdtempSync(path.join(dataRoot, 'startup-'));
    try {
      copyFileSync(file, path.join(dir, 'shopdesk.sqlite'));
      const served: Start[] = [];
      const floors: Start[] = [];
      for (let run = 0; run < RUNS; run++) {
        floors.push(
          await timeStart(
            ['bench/floor-process.mjs', path.join(dir, 'shopdesk.sqlite')],
            /listening (\S+)/,
            '/',
          ),
        );
        served.push(
          await timeStart(
            ['scripts/serve.mjs', '--data-dir', dir, '--port', '0'],
            /running at (\S+)/,
            '/health',
          ),
        );
      }
      const serveMs = median(served.map((s) => s.ms));
      const floorMs = median(floors.map((s) => s.ms));
      const serveRss = median(served.map((s) => s.rssBytes));
      const floorRss = median(floors.map((s) => s.rssBytes));
      ratios.push(serveMs / floorMs);
      rows.push(
        {
          case: `cold start to first answer, ${label}: npm run serve ÷ floor`,
          figure: `${fmt(serveMs / floorMs, 2)}× (${fmt(serveMs, 0)} ms ÷ ${fmt(floorMs, 0)} ms, medians of ${RUNS})`,
          target: '≤ 2×',
          pass: serveMs / floorMs <= 2,
        },
        {
          case: `idle RSS, ${label}: npm run serve ÷ floor`,
          figure: `${fmt(serveRss / floorRss, 2)}× (${fmt(serveRss / MB, 0)} MB ÷ ${fmt(floorRss / MB, 0)} MB)`,
          target: '≤ 2×',
          pass: serveRss / floorRss <= 2,
        },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }
  const growth = ratios[1]! / ratios[0]!;
  rows.push({
    case: 'cold start ratio, 100,000 ÷ 10,000 customers',
    figure: `${fmt(growth, 2)}`,
    target: '≤ 1.25 (flat)',
    pass: growth <= 1.25,
  });
  return rows;
};
export default startupCase;
