import { describe, expect, it } from 'vitest';
import { labelEvery, niceTicks } from '../../renderer/charts/scale';

describe('chart axes', () => {
  it('never puts a fraction on an axis of counts', () => {
    expect(niceTicks(2, 4, true)).toEqual([0, 1, 2]);
    expect(niceTicks(1, 4, true)).toEqual([0, 1]);
    expect(niceTicks(7, 4, true)).toEqual([0, 2, 4, 6, 8]);
    for (let max = 1; max <= 60; max++) {
      for (const tick of niceTicks(max, 4, true)) expect(Number.isInteger(tick), `max ${max}`).toBe(true);
    }
  });

  it('keeps round fractions for money', () => {
    expect(niceTicks(2)).toEqual([0, 0.5, 1, 1.5, 2]);
    expect(niceTicks(1000)).toEqual([0, 250, 500, 750, 1000]);
  });

  it('labels fewer points on a narrow chart, and never divides by nothing', () => {
    expect(labelEvery(26, 10)).toBe(3);
    expect(labelEvery(26, 0)).toBe(26);
  });
});
