import { type Kysely, sql } from 'kysely';

/**
 * Customer imports run in the background (docs/import-export.md): `run` is the last dry run,
 * import or undo as JSON (phase, state, rows done and to do, error), so a run the app did not live
 * to finish is found at the next start and marked failed; `data_rows` is the file's row count,
 * read once at upload, which a run's progress counts towards.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await sql.raw('ALTER TABLE customer_imports ADD COLUMN run TEXT').execute(db);
  await sql.raw('ALTER TABLE customer_imports ADD COLUMN data_rows INTEGER').execute(db);
}
