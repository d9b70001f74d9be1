import { type Kysely, sql } from 'kysely';

/**
 * mail_messages.cancelled_at: a mail message the owner cancelled, or that Shopdesk held back because its invoice was paid or
 * voided while it waited. Its stored status is 'failed' (the column's CHECK predates cancelling and
 * a rebuild of the table is not worth it); cancelled_at set is what makes it "cancelled".
 *
 * team_members.deactivated_at: someone who left keeps their name on finished jobs but is no longer
 * offered for new work.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`ALTER TABLE mail_messages ADD COLUMN cancelled_at TEXT`.execute(db);
  await sql`ALTER TABLE team_members ADD COLUMN deactivated_at TEXT`.execute(db);
}
