import type { Queryable } from '../db/database';

/**
 * Whether this install runs a business's automatic work (extending recurring visits, queueing
 * reminders): a standalone install does, and so does the hub of a synced business; its devices
 * do not, so two machines online at once never both send a reminder or both fill in the same
 * horizon. The work's results reach the devices as ordinary synced rows.
 */
export async function runsAutomation(db: Queryable, accountId: string): Promise<boolean> {
  const settings = await db
    .selectFrom('sync_settings')
    .select('role')
    .where('account_id', '=', accountId)
    .executeTakeFirst();
  return settings === undefined || settings.role === 'hub';
}
