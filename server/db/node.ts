import { type ExpressionBuilder, sql } from 'kysely';

/**
 * This install's node id. Webhook endpoints and mail messages are synced records, but exactly one
 * install delivers each (docs/sync.md, "Webhooks and mail once"): the one that created it.
 */
export const thisNode = sql<string>`(SELECT id FROM sync_node)`;

/** Rows this install delivers: its own, and those made before the node column existed. */
export function deliveredHere<DB, TB extends keyof DB>(eb: ExpressionBuilder<DB, TB>, column: string) {
  return eb.or([eb(sql.ref(column), 'is', null), eb(sql.ref(column), '=', thisNode)]);
}
