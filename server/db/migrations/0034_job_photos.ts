import { type Kysely, sql } from 'kysely';

/**
 * Photos the crew takes at a visit (docs/crew.md, "The phone"): downscaled on the phone, the bytes
 * kept in the row (base64, as booking_photos) so the hosted hub and every device hold them. The id
 * is made on the phone, so a resent photo is the same row.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql
    .raw(`CREATE TABLE job_photos (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      job_id TEXT NOT NULL REFERENCES jobs(id),
      member_id TEXT REFERENCES team_members(id),
      content_type TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      data TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`)
    .execute(db);
  await sql.raw('CREATE INDEX job_photos_job ON job_photos(job_id, id)').execute(db);
}
