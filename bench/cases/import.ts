import { execFileSync, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { jobberExport } from '../../test/helpers/client-files';
import { type BenchCase, fmt, type Row } from '../harness';

const MB = 1024 * 1024;
/** Row counts to run, largest last: IMPORT_ROWS=10000,50000,200000 measures how memory grows with the file. */
const SIZES = (process.env.IMPORT_ROWS ?? '50000').split(',').map(Number);
const root = path.resolve(import.meta.dirname, '../..');

function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
}

/**
 * A business moving in: a Jobber-shaped export of 50,000 clients uploaded, dry-run, imported and
 * undone, each step timed, with the peak RSS of the server doing it. The server is a headless one
 * of its own (`server/serve.ts` in a child process) on an empty data folder, so its RSS is its
 * own and the bench account's 100,000 customers do not match the file's.
 */
const importCase: BenchCase = async ({ log }) => {
  const rows: Row[] = [];
  for (const size of SIZES) rows.push(...(await measure(size, log)));
  return rows;
};

/** One size on a server of its own, started fresh: its peak RSS is what this size takes, not what an earlier size left. */
async function measure(ROWS: number, log: (line: string) => void): Promise<Row[]> {
  const dataDir = mkdtempSync(path.join(tmpdir(), 'shopdesk-bench-import-'));
  const tsx = (args: string[]) =>
    execFileSync(process.execPath, ['--import', 'tsx', ...args, '--data-dir', dataDir], {
      cwd: root,
    }).toString();
  const account = JSON.parse(tsx(['server/cli.ts', 'init', '--business', 'Moving In', '--json']));
  const child = spawn(
    process.execPath,
    ['--import', 'tsx', 'server/serve.ts', '--data-dir', dataDir, '--port', '0'],
    {
      cwd: root,
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  );
  try {
    const signIn = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /Sign in[^:]*: (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`import server exited (${code}): ${output}`)));
    });
    const base = new URL(signIn).origin;
    const signedIn = await fetch(signIn, { redirect: 'manual' });
    const cookie = (signedIn.headers.get('set-cookie') ?? '').split(';')[0]!;
    const portal = `${base}/api/portal/${account.client_id}/customer-imports`;
    const headers = { cookie, 'content-type': 'application/json' };
    const rows: Row[] = [];
    const { csv } = jobberExport(ROWS);
    let walkIns = 0;
    /** An ordinary write, as the owner makes one while the import runs: how long it takes. */
    const ordinaryWrite = async () => {
      const began = performance.now();
      walkIns += 1;
      const response = await fetch(`${base}/api/portal/${account.client_id}/customers`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ name: `Walk-in ${walkIns}`, email: `walk-in-${walkIns}@example.com` }),
      });
      const answer = await response.text();
      if (response.status !== 201)
        throw new Error(`an ordinary write during the import: HTTP ${response.status} ${answer}`);
      return (performance.now() - began) / 1000;
    };
    /**
     * The customer list read again and again while a run goes on, as another screen of the app
     * does: each answer's time, for the 99th percentile. A run that held the event loop for long
     * stretches would show here, since a read does not wait for the write lock.
     */
    const readWhile = (running: { on: boolean }) =>
      (async () => {
        const times: number[] = [];
        while (running.on) {
          const began = performance.now();
          const response = await fetch(`${base}/api/portal/${account.client_id}/customers?limit=50`, {
            headers: { cookie },
          });
          await response.arrayBuffer();
          if (!response.ok) throw new Error(`GET /customers during the import: HTTP ${response.status}`);
          times.push((performance.now() - began) / 1000);
        }
        return times.sort((a, b) => a - b);
      })();
    const step = async (name: string, run: () => Promise<Response>, follow = false) => {
      const before = rssOf(child.pid!);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(child.pid!));
      }, 25);
      const began = performance.now();
      const reading = { on: follow };
      const reads = readWhile(reading);
      const response = await run();
      let answer = (await response.json()) as {
        id: string;
        columns: unknown[];
        run: { state: string } | null;
      };
      if (!response.ok) throw new Error(`${name}: HTTP ${response.status} ${JSON.stringify(answer)}`);
      let slowestWrite = 0;
      // Runs answer 202 at once and go on in the background: poll the import as the UI does, with
      // an ordinary write between polls to see what the owner's other work meets meanwhile.
      while (follow && answer.run?.state === 'running') {
        await new Promise((resolve) => setTimeout(resolve, 100));
        slowestWrite = Math.max(slowestWrite, await ordinaryWrite());
        answer = await (await fetch(`${portal}/${answer.id}`, { headers: { cookie } })).json();
      }
      const seconds = (performance.now() - began) / 1000;
      clearInterval(sampler);
      reading.on = false;
      const readTimes = await reads;
      if (follow && answer.run?.state !== 'succeeded')
        throw new Error(`${name}: ${JSON.stringify(answer.run)}`);
      const p99 = readTimes[Math.min(readTimes.length - 1, Math.floor(readTimes.length * 0.99))] ?? 0;
      const writes = follow
        ? `, slowest ordinary write meanwhile ${fmt(slowestWrite, 2)} s, GET /customers p99 ${fmt(p99, 2)} s (max ${fmt(readTimes.at(-1) ?? 0, 2)} s, ${readTimes.length} reads)`
        : '';
      const figure = `${name} ${ROWS.toLocaleString('en')} rows (${fmt(csv.length / MB)} MB): ${fmt(seconds, 2)} s, ${fmt(ROWS / seconds, 0)} rows/s, peak RSS ${fmt(peak / MB, 0)} MB (${fmt(before / MB, 0)} MB before)${writes}`;
      log(`import: ${figure}`);
      rows.push({ case: 'import', figure, target: '', pass: null });
      return answer;
    };
    const uploaded = await step('upload', () =>
      fetch(portal, { method: 'POST', headers: { cookie, 'content-type': 'text/csv' }, body: csv }),
    );
    const id = uploaded.id;
    const body = JSON.stringify({ columns: uploaded.columns, on_match: 'skip' });
    await step('dry run', () => fetch(`${portal}/${id}/dry-run`, { method: 'POST', headers, body }), true);
    await step('import', () => fetch(`${portal}/${id}/import`, { method: 'POST', headers, body }), true);
    await step('undo', () => fetch(`${portal}/${id}/undo`, { method: 'POST', headers, body: '{}' }), true);
    return rows;
  } finally {
    child.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  }
}

export default importCase;
