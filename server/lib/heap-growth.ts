import v8 from 'node:v8';

/**
 * How far V8 lets the heap grow past what was live after a full collection before it collects
 * again: 1.25 times. On a computer with several GB of memory V8 picks up to 4 times, and the
 * longer a run allocates (a 200,000-row import reads, checks and stages each row, keeping none),
 * the nearer the heap gets to 4 times the ~50 MB it holds: peak heap 74, 180, 210 MB at 10,000,
 * 50,000 and 200,000 rows, which was what the server's peak RSS grew with (BENCHMARKS.md,
 * "Import"). V8 reads the flag at each collection, so setting it once is enough; it caps nothing,
 * so a task that needs a bigger heap still gets one. Headless mode sets it once it is serving
 * (scripts/serve.mjs puts it back to V8's default before it writes its code cache at exit).
 */
const HEAP_GROWING_PERCENT = 25;

/** Called by each server process's entry point (headless once serving, the desktop app's and the CLI first thing). */
export function keepHeapNearLive(): void {
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
