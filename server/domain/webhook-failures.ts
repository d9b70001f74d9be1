import type { Db } from '../db/database';

/** Consecutive failed attempts after which a v1 endpoint is disabled. */
export const DISABLE_AFTER_FAILURES = 20;

/**
 * Disables the v1 endpoints (or the one named) whose failure streak reached the bound. Delivery
 * counts the streak on a connection of its own; `enabled` syncs, so this write is the server's
 * connection's, whose triggers capture it. Run again at every start, it also finishes the
 * disabling a stop left undone between the two writes.
 */
export async function disableFailingEndpoints(db: Db, nowIso: string, endpointId?: string): Promise<void> {
  let query = db
    .updateTable('webhook_endpoints')
    .set({ enabled: 0, disabled_reason: 'consecutive_failures', disabled_at: nowIso, updated_at: nowIso })
    .where('interface', '=', 'v1')
    .where('enabled', '=', 1)
    .where('consecutive_failures', '>=', DISABLE_AFTER_FAILURES);
  if (endpointId) query = query.where('id', '=', endpointId);
  await query.execute();
}
