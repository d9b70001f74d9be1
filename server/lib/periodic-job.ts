import { runAs, SYSTEM_ACTOR } from './actor';

/** Background work of a running server: `runNow()` runs a pass at once; `stop()` waits for the last. */
export interface PeriodicJob<T> {
  /** Runs one pass now, after any pass under way (passes never overlap). */
  runNow(): Promise<T>;
  stop(): Promise<void>;
}

/**
 * Runs `pass` off the start-up path (first after `firstDelayMs`), then every `intervalMs`, one
 * pass at a time. A failed scheduled pass is logged under `name` and the next one runs as usual;
 * `pass` is told when the job stops, so a long pass can end early.
 */
export function startPeriodicJob<T>(
  name: string,
  pass: (stopping: () => boolean) => Promise<T>,
  timing: { firstDelayMs: number; intervalMs: number; onResult?: (result: T) => void },
): PeriodicJob<T> {
  let running: Promise<unknown> = Promise.resolve();
  let stopped = false;
  const runNow = () => {
    // Scheduled work is the system's, even when a request asked for a pass.
    const next = running.then(() => runAs(SYSTEM_ACTOR, () => pass(() => stopped)));
    running = next.catch(() => undefined);
    return next;
  };
  const tick = () => {
    if (stopped) return;
    runNow().then(timing.onResult, (error: unknown) => console.error(`${name}: a pass failed`, error));
  };
  const first = setTimeout(tick, timing.firstDelayMs);
  const every = setInterval(tick, timing.intervalMs);
  first.unref();
  every.unref();
  return {
    runNow,
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      await running;
    },
  };
}
