import { type RawBuilder, sql } from 'kysely';
import type { Queryable } from '../../db/database';
import type { OverviewDaysTable, OverviewSlotsTable } from '../../db/schema';

/**
 * Reads of the overview rollups (migration 0004_overview_rollups; triggers keep them): sums per
 * 15-minute UTC slot in overview_slots and per issue date in overview_days.
 */

export type SlotColumn = Exclude<keyof OverviewSlotsTable, 'account_id' | 'slot'>;
export type DayColumn = Exclude<keyof OverviewDaysTable, 'account_id' | 'day'>;

const KEYS = { overview_slots: 'slot', overview_days: 'day' } as const;
type RollupTable = keyof typeof KEYS;

/** The sum of a rollup column over a range. */
export function total(column: SlotColumn | DayColumn): RawBuilder<number> {
  return sql<number>`sum(${sql.ref(column)})`;
}

/**
 * Each measure summed over consecutive ranges [bounds[i], bounds[i + 1]), one result per range,
 * in order; an empty range gives zeros. For overview_slots the bounds are instants, and they must
 * be slot starts ('…T04:00:00Z', '…T18:15:00Z'): a local midnight always is, in every zone since
 * 1972. For overview_days they are dates.
 *
 * One aggregate per range joined by UNION ALL: each is a primary-key range read with no sorting,
 * where a single CASE … GROUP BY would test every row against every bound and sort the groups.
 */
export async function sumRanges<K extends string>(
  db: Queryable,
  table: RollupTable,
  accountId: string,
  bounds: string[],
  measures: Record<K, RawBuilder<number>>,
): Promise<Array<Record<K, number>>> {
  const names = Object.keys(measures) as K[];
  const key = sql.ref(KEYS[table]);
  const ranges = bounds.slice(1).map(
    (end, i) =>
      sql`SELECT ${sql.lit(i)} AS bucket, ${sql.join(names.map((name) => sql`${measures[name]} AS ${sql.id(name)}`))}
        FROM ${sql.table(table)}
        WHERE account_id = ${accountId} AND ${key} >= ${bounds[i]!} AND ${key} < ${end}`,
  );
  if (!ranges.length) return [];
  const { rows } = await sql<
    Record<K | 'bucket', number | null>
  >`${sql.join(ranges, sql` UNION ALL `)}`.execute(db);
  const out = ranges.map(() => Object.fromEntries(names.map((name) => [name, 0])) as Record<K, number>);
  for (const row of rows) {
    const sums = out[Number(row.bucket)]!;
    for (const name of names) sums[name] = Number(row[name] ?? 0);
  }
  return out;
}
