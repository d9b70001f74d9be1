import type { Queryable } from '../db/database';

/**
 * The blocks of numbers a synced business's hub leased this install (docs/sync.md, "Numbers"):
 * nextNumber (counters.ts) issues from them; sync/device/number-top-up.ts keeps them filled.
 */

export const NUMBER_SERIES = ['invoice', 'quote', 'job'];
/** A series with fewer numbers left than this is topped up at once, while the hub can be reached. */
export const LEASE_LOW_WATER = 25;

export interface LeasedBlock {
  series: string;
  start: number;
  end: number;
}

export async function numbersLeft(db: Queryable, accountId: string): Promise<Map<string, number>> {
  const blocks = await db
    .selectFrom('number_blocks')
    .select(['series', 'next_value', 'end_value'])
    .where('account_id', '=', accountId)
    .execute();
  const left = new Map(NUMBER_SERIES.map((series) => [series, 0]));
  for (const b of blocks) left.set(b.series, (left.get(b.series) ?? 0) + b.end_value - b.next_value + 1);
  return left;
}

export async function storeBlocks(db: Queryable, accountId: string, blocks: LeasedBlock[]): Promise<void> {
  if (blocks.length === 0) return;
  await db
    .insertInto('number_blocks')
    .values(
      blocks.map((b) => ({ account_id: accountId, series: b.series, next_value: b.start, end_value: b.end })),
    )
    .execute();
}
