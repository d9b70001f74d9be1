import { sql } from 'kysely';
import type { Db } from '../db/database';

/**
 * A synced device restored from a backup holds an older copy of the business and an outbox whose
 * change numbers the hub has already acknowledged. It pulls the whole business again (cursor 0,
 * the hub's newer rows merge over the restored ones by their clocks) and renumbers what waits to go
 * out past anything it sent before, so the hub takes those changes instead of skipping them as
 * repeats. Changes in the backup that had reached the hub are sent again: merging them is a no-op.
 */
const RENUMBER_BY = 2 ** 32;

export async function resetSyncAfterRestore(db: Db): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.updateTable('sync_settings').set({ cursor: 0 }).execute();
    await sql`DELETE FROM sync_deferred`.execute(tx);
    await sql`UPDATE sync_outbox SET local_seq = local_seq + ${RENUMBER_BY}`.execute(tx);
    await sql`UPDATE sqlite_sequence SET seq = seq + ${RENUMBER_BY} WHERE name = 'sync_outbox'`.execute(tx);
  });
}
