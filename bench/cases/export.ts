import { spawn } from 'node:child_process';
import { copyFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import { createContext } from '../../server/context';
import { createKey } from '../../server/domain/api-keys';
import { systemClock } from '../../server/lib/clock';
import { openDatabase } from '../../server/sync/open';
import { type BenchCase, fmt, type Row } from '../harness';

const MB = 1024 * 1024;
const root = path.resolve(import.meta.dirname, '../..');

/** Resident memory of a process, from /proc (the bench runs on Linux). */
function rssOf(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = /VmRSS:\s+(\d+) kB/.exec(status)?.[1];
  return Number(kb ?? 0) * 1024;
}

/**
 * The whole account streamed, in each format: rows per second, and the peak RSS of the server
 * doing it. The export runs against a headless server of its own (`npm run serve`'s script in a
 * child process), because the bench's own process also holds the load generator's results and the
 * bare floor: its RSS would not be the server's. That server gets a copy of the data set in a folder
 * of its own: the bench's server holds its folder, and a second server on it is refused.
 */
const exportCase: BenchCase = async ({ account, dataFile }) => {
  const rowsInAccount = Object.values(account.counts).reduce((a, b) => a + b, 0);
  const dataDir = mkdtempSync(path.join(path.dirname(path.dirname(dataFile)), 'export-'));
  copyFileSync(dataFile, path.join(dataDir, 'shopdesk.sqlite'));
  // The bench's key lives in the bench server's copy; this copy gets one of its own.
  const database = await openDatabase(dataDir);
  const portalKey = await createKey(createContext(database.db, systemClock), account.id, { kind: 'portal' })
    .then((created) => created.key)
    .finally(() => database.close());
  const child = spawn(process.execPath, ['scripts/serve.mjs', '--data-dir', dataDir, '--port', '0'], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  try {
    const url = await new Promise<string>((resolve, reject) => {
      let output = '';
      child.stdout.on('data', (chunk) => {
        output += chunk;
        const match = /running at (\S+)/.exec(output);
        if (match) resolve(match[1]!);
      });
      child.on('exit', (code) => reject(new Error(`export server exited (${code}): ${output}`)));
    });
    const rows: Row[] = [];
    for (const format of ['json', 'csv'] as const) {
      const before = rssOf(child.pid!);
      let peak = before;
      const sampler = setInterval(() => {
        peak = Math.max(peak, rssOf(child.pid!));
      }, 25);
      const began = performance.now();
      const response = await fetch(`${url}/api/portal/${account.id}/export?format=${format}`, {
        headers: { authorization: `Bearer ${portalKey}` },
      });
      if (response.status !== 200 || !response.body)
        throw new Error(`export ${format}: HTTP ${response.status}`);
      let bytes = 0;
      const reader = response.body.getReader();
      for (let part = await reader.read(); !part.done; part = await reader.read())
        bytes += part.value.byteLength;
      const seconds = (performance.now() - began) / 1000;
      clearInterval(sampler);
      rows.push(
        {
          case: `GET /export?format=${format}`,
          figure: `${fmt(rowsInAccount / seconds / 1000, 0)}k rows/s (${rowsInAccount.toLocaleString('en')} rows, ${fmt(bytes / MB, 0)} MB in ${fmt(seconds, 1)} s)`,
          target: '',
          pass: null,
        },
        {
          case: `GET /export?format=${format} server peak RSS`,
          figure: `${fmt(peak / MB, 0)} MB (${fmt(before / MB, 0)} MB before)`,
          target: '< 300 MB',
          pass: peak < 300 * MB,
        },
      );
    }
    return rows;
  } finally {
    child.removeAllListeners('exit');
    await new Promise((resolve) => {
      child.once('exit', resolve);
      child.kill('SIGTERM');
    });
    rmSync(dataDir, { recursive: true, force: true });
  }
};
export default exportCase;
