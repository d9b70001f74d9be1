import type { Tx } from '../db/database';

/** The next value of a per-account sequence (invoice, quote and job numbers). Call inside the creating transaction. */
export async function nextCounter(tx: Tx, accountId: string, name: string): Promise<number> {
  const row = await tx
    .insertInto('counters')
    .values({ account_id: accountId, name, value: 1 })
    .onConflict((oc) =>
      oc.columns(['account_id', 'name']).doUpdateSet((eb) => ({ value: eb('counters.value', '+', 1) })),
    )
    .returning('value')
    .executeTakeFirstOrThrow();
  return row.value;
}

export function formatNumber(prefix: string, value: number): string {
  return `${prefix}${String(value).padStart(4, '0')}`;
}
