import type { Clock } from '../server/lib/clock';

/** Clock readings per simulated minute: requests read the clock at least twice, so a key stays under 100 a minute. */
const READINGS_PER_MINUTE = 180;

/**
 * The server's clock during the bench: real elapsed time from the data set's "now", plus one
 * minute for every READINGS_PER_MINUTE readings. The portal allows 100 requests a minute per key,
 * which a load test passes in a few milliseconds; moving the clock keeps every request inside
 * the limit while the limiter itself still runs on each one.
 */
export function benchClock(dataNow: string): Clock {
  const origin = Date.parse(dataNow);
  const started = performance.now();
  let readings = 0;
  return {
    now: () => {
      readings++;
      const skipped = Math.floor(readings / READINGS_PER_MINUTE) * 60_000;
      return new Date(origin + Math.floor(performance.now() - started) + skipped);
    },
  };
}
