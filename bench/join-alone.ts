import { spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer } from '../server/index';
import { checkpoint, copyOverHttp } from './sync-join';

/**
 * A device's first sync alone, as the sync case times it, repeated on one paired hub:
 * `tsx bench/join-alone.ts <data folder> <joins> [node flags for the joiner…]`. Each join runs the
 * compiled CLI (dist/server/cli.cjs: build it first; JOIN_CLIS=a.cjs,b.cjs alternates bundles in
 * dist/server, to compare two builds on one hub) under `/usr/bin/time -v` into an empty folder; its
 * floor is that folder's file over loopback HTTP. Besides the joiner's CPU, that of its main thread
 * alone (Linux): a join spreading its work over threads shows there.
 */

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.join(here, '..');
const [source = 'bench/.data/v3-x0.1', count = '1', ...nodeFlags] = process.argv.slice(2);
const { accountId } = JSON.parse(readFileSync(path.join(source, 'meta.json'), 'utf8')) as {
  accountId: string;
};
const work = mkdtempSync(path.join(here, '.data', 'join-'));
mkdirSync(path.join(work, 'hub'));
copyFileSync(path.join(source, 'shopdesk.sqlite'), path.join(work, 'hub', 'shopdesk.sqlite'));
// No backup at start, as the bench's servers: its copy of the whole file would run during the joins.
const hub = await startServer({
  dataDir: path.join(work, 'hub'),
  host: '127.0.0.1',
  port: 0,
  backups: { schedule: false },
});
try {
  const engine = hub.ctx.sync!;
  let started = performance.now();
  await engine.pair(accountId, { hubUrl: hub.url });
  console.log(`paired in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const clis = (process.env.JOIN_CLIS ?? 'cli.cjs').split(',');
  for (let n = 0; n < Number(count); n++) {
    const cli = clis[n % clis.length]!;
    const { pairing_code } = await engine.pair(accountId);
    const dir = path.join(work, `device-${n}`);
    mkdirSync(dir);
    started = performance.now();
    const { stderr, mainThreadSeconds } = await run([
      '-v',
      process.execPath,
      ...nodeFlags,
      `dist/server/${cli}`,
      'sync',
      'join',
      '--hub',
      hub.url,
      '--code',
      pairing_code,
      '--json',
      '--data-dir',
      dir,
    ]);
    const ms = performance.now() - started;
    const field = (name: string) => Number(new RegExp(`${name}: ([\\d.]+)`).exec(stderr)?.[1]);
    const file = path.join(dir, 'shopdesk.sqlite');
    checkpoint(file);
    const floor = await copyOverHttp(file, path.join(work, 'copy.sqlite'));
    const cpu = field('User time \\(seconds\\)') + field('System time \\(seconds\\)');
    const peak = field('Maximum resident set size \\(kbytes\\)') / 1024;
    console.log(
      `${cli}: join ${(ms / 1000).toFixed(1)} s, CPU ${cpu.toFixed(1)} s (main thread ${mainThreadSeconds.toFixed(1)} s), peak ${peak.toFixed(0)} MB; floor ${(floor.ms / 1000).toFixed(1)} s (${(floor.bytes / 1_048_576).toFixed(0)} MB); ratio ${(ms / floor.ms).toFixed(2)}`,
    );
    if (n < Number(count) - 1 || !process.env.KEEP) rmSync(dir, { recursive: true, force: true });
  }
} finally {
  await hub.close();
  if (!process.env.KEEP) rmSync(work, { recursive: true, force: true });
}

function run(args: string[]): Promise<{ stderr: string; mainThreadSeconds: number }> {
  return new Promise((resolve, reject) => {
    const child = spawn('/usr/bin/time', args, { cwd: repo, stdio: ['ignore', 'inherit', 'pipe'] });
    let stderr = '';
    let mainThreadSeconds = Number.NaN;
    // The joiner is the child of `time`; its main thread's CPU is read until it exits.
    const poll = setInterval(() => {
      const seconds = mainThreadCpu(child.pid!);
      if (seconds !== undefined) mainThreadSeconds = seconds;
    }, 100);
    child.stderr.on('data', (chunk) => {
      stderr += chunk;
    });
    child.on('error', reject);
    child.on('close', (code) => {
      clearInterval(poll);
      if (code === 0) resolve({ stderr, mainThreadSeconds });
      else reject(new Error(`join exited ${code}: ${stderr.slice(-2000)}`));
    });
  });
}

/** User and system seconds of the main thread of `parent`'s child process (undefined once gone). */
function mainThreadCpu(parent: number): number | undefined {
  try {
    const pid = readFileSync(`/proc/${parent}/task/${parent}/children`, 'utf8').trim().split(' ')[0];
    if (!pid) return undefined;
    const stat = readFileSync(`/proc/${pid}/task/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // utime and stime, fields 14 and 15 of stat, in clock ticks (100 a second on Linux).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}
