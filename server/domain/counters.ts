import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
import type { Tx } from '../db/database';
import { LEASE_LOW_WATER, numbersLeft, storeBlocks } from './number-blocks';

/**
 * The next number of a per-account series (invoice, quote, job), formatted with its prefix. Call
 * inside the creating transaction.
 *
 * A standalone install counts on its own. An install that syncs issues numbers from the blocks
 * the hub leased it (docs/sync.md, "Numbers"), so two devices never issue the same number; one
 * that has used up its blocks while offline goes on with numbers of its own, marked with its
 * device code (INV-B-0001), which no other device can issue. Online, the blocks are topped up before
 * they run dry, and an empty series asks the hub briefly first (sync/device/number-top-up.ts).
 */
export async function nextNumber(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  series: string,
  prefix: string,
): Promise<string> {
  // Every creation asks for a number: the reads and the counter are compiled once.
  const [block] = await runCompiledOnce(tx, 'next number block', { accountId, series }, (v) =>
    tx
      .selectFrom('number_blocks')
      .select(['next_value', 'end_value'])
      .where('account_id', '=', v.accountId)
      .where('series', '=', v.series)
      .orderBy('next_value')
      .limit(1),
  );
  if (block) {
    const taken = tx
      .updateTable('number_blocks')
      .where('account_id', '=', accountId)
      .where('series', '=', series)
      .where('next_value', '=', block.next_value);
    if (block.next_value < block.end_value) await taken.set({ next_value: block.next_value + 1 }).execute();
    else
      await tx
        .deleteFrom('number_blocks')
        .where('account_id', '=', accountId)
        .where('series', '=', series)
        .where('next_value', '=', block.next_value)
        .execute();
    if (ctx.sync && ((await numbersLeft(tx, accountId)).get(series) ?? 0) < LEASE_LOW_WATER)
      ctx.sync.numbers.runningLow(accountId);
    return formatNumber(prefix, block.next_value);
  }
  const leased = await ctx.sync?.numbers.leaseNow(accountId, series);
  if (leased?.length) {
    await storeBlocks(tx, accountId, leased);
    return nextNumber(tx, ctx, accountId, series, prefix);
  }
  const [synced] = await runCompiledOnce(tx, 'device code', { accountId }, (v) =>
    tx.selectFrom('sync_settings').select('device_code').where('account_id', '=', v.accountId),
  );
  if (synced) {
    return formatNumber(`${prefix}${synced.device_code}-`, await nextCounter(tx, accountId, `${series}:own`));
  }
  return formatNumber(prefix, await nextCounter(tx, accountId, series));
}

async function nextCounter(tx: Tx, accountId: string, name: string): Promise<number> {
  const [row] = await runCompiledOnce(tx, 'next counter', { accountId, name }, (v) =>
    tx
      .insertInto('counters')
      .values({ account_id: v.accountId, name: v.name, value: 1 })
      .onConflict((oc) =>
        oc.columns(['account_id', 'name']).doUpdateSet((eb) => ({ value: eb('counters.value', '+', 1) })),
      )
      .returning('value'),
  );
  return row!.value;
}

export function formatNumber(prefix: string, value: number): string {
  return `${prefix}${String(value).padStart(4, '0')}`;
}
