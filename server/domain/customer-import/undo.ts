import { sql } from 'kysely';
import type { Queryable, Tx } from '../../db/database';
import { invalidState } from '../../lib/errors';

const REFERENCING = ['invoices', 'quotes', 'jobs', 'bookings', 'service_plans', 'reviews', 'mail_messages'];

/**
 * Customers of an import that something else touched since: changed (their updated_at is not the
 * one the import wrote: an edit, a tag, a note, a merge, a change synced from another device),
 * gone, or, for the ones it created, given work, documents, reviews, messages or an edited place.
 */
export async function touchedCustomers(db: Queryable, importId: string): Promise<number> {
  const referenced = REFERENCING.map(
    (table) => sql`EXISTS (SELECT 1 FROM ${sql.table(table)} x WHERE x.customer_id = r.customer_id)`,
  );
  const { rows } = await sql<{ touched: number }>`
    SELECT count(*) AS touched FROM customer_import_rows r LEFT JOIN customers c ON c.id = r.customer_id
    WHERE r.import_id = ${importId} AND (c.id IS NULL OR c.updated_at IS NOT r.stamp OR (r.action = 'created' AND (
      ${sql.join(referenced, sql` OR `)}
      OR EXISTS (SELECT 1 FROM properties p WHERE p.customer_id = r.customer_id AND p.updated_at IS NOT r.stamp))))`.execute(
    db,
  );
  return Number(rows[0]?.touched ?? 0);
}

/**
 * Takes an import back whole, in the caller's transaction: the customers it created go with their
 * tags, notes and places; the ones it updated get their fields back and lose what it added.
 * Refused (409) once any of them was touched: undoing would throw that work away.
 */
export async function undoRows(
  tx: Tx,
  importId: string,
  now: string,
): Promise<{ removed: number; restored: number }> {
  const touched = await touchedCustomers(tx, importId);
  if (touched > 0) {
    throw invalidState(
      `This import can no longer be undone: ${touched} of its customers changed since (edited, given work, or synced from another device)`,
      { touched },
    );
  }
  const created = sql`(SELECT customer_id FROM customer_import_rows WHERE import_id = ${importId} AND action = 'created')`;
  for (const table of ['customer_tags', 'customer_notes', 'properties']) {
    await sql`DELETE FROM ${sql.table(table)} WHERE customer_id IN ${created}`.execute(tx);
  }
  const removed = await sql`DELETE FROM customers WHERE id IN ${created}`.execute(tx);
  // The customers it updated, all at once in SQL from what each row kept (`before`), however many.
  const updated = sql`customer_import_rows r WHERE r.import_id = ${importId} AND r.action = 'updated'`;
  const added = (list: string) =>
    sql`(SELECT j.value FROM customer_import_rows r, json_each(r.before, ${`$.${list}`}) j
      WHERE r.import_id = ${importId} AND r.action = 'updated')`;
  const { rows: edited } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM customer_import_rows r, json_each(r.before, '$.property_ids') j
      JOIN properties p ON p.id = j.value
    WHERE r.import_id = ${importId} AND r.action = 'updated' AND p.updated_at IS NOT r.stamp`.execute(tx);
  if (Number(edited[0]!.n) > 0)
    throw invalidState('This import can no longer be undone: a place it added was edited since');
  await sql`DELETE FROM properties WHERE id IN ${added('property_ids')}`.execute(tx);
  await sql`DELETE FROM customer_notes WHERE id IN ${added('note_ids')}`.execute(tx);
  await sql`DELETE FROM customer_tags WHERE (customer_id, tag) IN (
    SELECT r.customer_id, j.value FROM customer_import_rows r, json_each(r.before, '$.tags') j
    WHERE r.import_id = ${importId} AND r.action = 'updated')`.execute(tx);
  // email_lower is kept since imports stage it; lower() stands in for older ones (ASCII only).
  const restored = await sql`UPDATE customers SET
      name = json_extract(r.before, '$.name'),
      email = json_extract(r.before, '$.email'),
      email_lower = coalesce(json_extract(r.before, '$.email_lower'), lower(json_extract(r.before, '$.email'))),
      phone = json_extract(r.before, '$.phone'),
      address = json_extract(r.before, '$.address'),
      updated_at = ${now}
    FROM ${updated} AND customers.id = r.customer_id`.execute(tx);
  return {
    removed: Number(removed.numAffectedRows ?? 0),
    restored: Number(restored.numAffectedRows ?? 0),
  };
}
