import { type Kysely, sql } from 'kysely';

/**
 * Who made each change, and where (docs/crew-design.md, "Who made each change"). The outbox keeps
 * the actor of each captured change so it travels to the hub; the embedded hub keeps each column's
 * actor and device beside its clock (`actors`, JSON, absent for rows merged before); a record's
 * history keeps the name of the device a pulled change came from.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  for (const statement of [
    'ALTER TABLE sync_outbox ADD COLUMN actor TEXT',
    'ALTER TABLE hub_rows ADD COLUMN actors TEXT',
    'ALTER TABLE record_changes ADD COLUMN device_name TEXT',
  ])
    await sql.raw(statement).execute(db);
}
