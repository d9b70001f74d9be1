import { describe, expect, it } from 'vitest';
import { forgetIds, idTime, keepIdsAfter, newId, randomBase62 } from './ids';

describe('newId', () => {
  it('sorts in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 1000 }, () => newId('cus', 1_790_000_000_000));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(1000);
  });

  it('sorts by time across milliseconds and has the contract shape', () => {
    const earlier = newId('inv', 1_790_000_000_000);
    const later = newId('inv', 1_790_000_000_001);
    expect(earlier < later).toBe(true);
    expect(later).toMatch(/^inv_[0-9a-z]{26}$/);
  });
});

describe('keepIdsAfter', () => {
  it('makes ids sort after a newer one even when the clock is behind it', () => {
    const newest = newId('inv', 1_900_000_000_000);
    const other = `cus_${newest.slice(4)}`;
    keepIdsAfter(other);
    const later = newId('cus', 1_800_000_000_000);
    expect(later > other).toBe(true);
    expect(later.slice(4, 14)).toBe(other.slice(4, 14));
  });
});

describe('forgetIds', () => {
  it('lets ids follow the clock again after one far ahead, as in a new process', () => {
    newId('job', 2_000_000_000_000);
    expect(idTime(newId('job', 1_800_000_000_000))).toBe(2_000_000_000_000);
    forgetIds();
    expect(idTime(newId('job', 1_800_000_000_000))).toBe(1_800_000_000_000);
  });
});

describe('randomBase62', () => {
  it('returns the asked length from the base62 alphabet', () => {
    const value = randomBase62(32);
    expect(value).toMatch(/^[0-9A-Za-z]{32}$/);
    expect(randomBase62(32)).not.toBe(value);
  });
});
