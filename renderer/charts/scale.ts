/**
 * A "nice" axis maximum and ticks (1, 2, 2.5, 5 × 10^n) so gridlines land on round numbers. Counts
 * (`whole`) step by whole numbers: there is no half a job.
 */
export function niceTicks(max: number, count = 4, whole = false): number[] {
  if (!(max > 0)) return [0, 1];
  const rough = max / count;
  const magnitude = 10 ** Math.floor(Math.log10(rough));
  const nice = [1, 2, 2.5, 5, 10].map((m) => m * magnitude).find((s) => s >= rough) ?? rough;
  const step = whole ? Math.max(1, Math.ceil(nice)) : nice;
  const ticks: number[] = [];
  for (let value = 0; value < max + step * 0.999; value += step) ticks.push(Number(value.toFixed(10)));
  return ticks;
}

/** At most `max` evenly spread label positions, so long series keep readable axes. */
export function labelEvery(length: number, max: number): number {
  return Math.max(1, Math.ceil(length / Math.max(1, max)));
}
