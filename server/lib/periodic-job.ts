import { runAs, SYSTEM_ACTOR } from './actor';
import type { BackgroundWork } from './background-work';

/** Background work of a running server: `runNow()` runs a pass at once; `stop()` waits for the last. */
export interface PeriodicJob<T> extends BackgroundWork {
  /** Runs one pass now, after any pass under way (passes never overlap); while paused, after `resume()`. */
  runNow(): Promise<T>;
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
  let queue: Promise<unknown> = Promise.resolve();
  let underWay: Promise<unknown> = Promise.resolve();
  let paused: { resumed: Promise<void>; resume: () => void } | undefined;
  let stopped = false;
  const runNow = () => {
    const next = queue.then(async () => {
      while (paused && !stopped) await paused.resumed;
      // Scheduled work is the system's, even when a request asked for a pass.
      const running = runAs(SYSTEM_ACTOR, () => pass(() => stopped));
      underWay = running.catch(() => undefined);
      return running;
    });
    queue = next.catch(() => undefined);
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
  const resume = () => {
    const was = paused;
    paused = undefined;
    was?.resume();
  };
  return {
    runNow,
    pause: async () => {
      if (!paused) {
        let release: () => void = () => undefined;
        const resumed = new Promise<void>((resolve) => {
          release = resolve;
        });
        paused = { resumed, resume: release };
      }
      await underWay;
    },
    resume,
    stop: async () => {
      stopped = true;
      clearTimeout(first);
      clearInterval(every);
      resume();
      await queue;
    },
  };
}
