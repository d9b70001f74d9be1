import type { CustomerReference } from '../domain/customer-merge';
import { SYNCED_TABLES } from './tables';

/** Columns naming a customer, in every synced table but the merge records: what a customer merge moves. */
export function customerReferences(): CustomerReference[] {
  return SYNCED_TABLES.filter((t) => !t.recordsMergeOf).flatMap((table) =>
    Object.entries(table.refs ?? {})
      .filter(([, target]) => target === 'customers')
      .map(([column]) => ({ table: table.name, column, inKey: table.pk.includes(column) })),
  );
}
