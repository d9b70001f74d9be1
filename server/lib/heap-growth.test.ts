import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from 'vitest';

/**
 * A program shaped as an import is for the heap: about 55 MB live throughout, and 600 batches of
 * garbage that each live long enough to be promoted to the old generation before they are
 * dropped. Left to V8's own growing factor on this machine its heap peaks at about 220 MB; with
 * keepHeapNearLive at about 125 MB. It runs in a process of its own, since the flag is the
 * process's.
 */
const program = `
const { keepHeapNearLive } = await import(${JSON.stringify(path.join(import.meta.dirname, 'heap-growth.ts'))});
keepHeapNearLive();
const live = Array.from({ length: 40 }, (_, i) => new Array(125_000).fill(i));
const ring = new Array(32);
let peak = 0;
for (let round = 0; round < 600; round += 1) {
  ring[round % ring.length] = Array.from({ length: 5_000 }, (_, i) => ({ round, i, text: 'row ' + round + ' ' + i }));
  peak = Math.max(peak, process.memoryUsage().heapUsed);
}
console.log(JSON.stringify({ peak, live: live.length }));
`;

test('keeps the heap near what is live while a long task makes garbage', async () => {
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ['--import', 'tsx', '--input-type=module', '-e', program],
    { timeout: 120_000 },
  );
  const { peak } = JSON.parse(stdout) as { peak: number };
  expect(peak / 2 ** 20).toBeLessThan(170);
}, 150_000);
