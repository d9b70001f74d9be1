import { sql } from 'kysely';
import type { Queryable, Tx } from '../../db/database';
import { invalidState } from '../../lib/errors';
import { breathe } from './stage';

/** Customers a statement of the undo takes back. */
const UNDO_ROWS = 2000;
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
  let removed = 0;
  for await (const ids of importedCustomers(tx, importId, 'created')) {
    const page = sql`(${sql.join(ids)})`;
    for (const table of ['customer_tags', 'customer_notes', 'properties'])
      await sql`DELETE FROM ${sql.table(table)} WHERE customer_id IN ${page}`.execute(tx);
    const gone = await sql`DELETE FROM customers WHERE id IN ${page}`.execute(tx);
    removed += Number(gone.numAffectedRows ?? 0);
  }
  const { rows: edited } = await sql<{ n: number }>`
    SELECT count(*) AS n FROM customer_import_rows r, json_each(r.before, '$.property_ids') j
      JOIN properties p ON p.id = j.value
    WHERE r.import_id = ${importId} AND r.action = 'updated' AND p.updated_at IS NOT r.stamp`.execute(tx);
  if (Number(edited[0]!.n) > 0)
    throw invalidState('This import can no longer be undone: a place it added was edited since');
  // The customers it updated get back what each row kept (`before`), in SQL, a page at a time.
  let restored = 0;
  for await (const ids of importedCustomers(tx, importId, 'updated')) {
    const rows = sql`(SELECT customer_id, before FROM customer_import_rows WHERE import_id = ${importId}
      AND action = 'updated' AND customer_id IN (${sql.join(ids)})) r`;
    const added = (list: string) => sql`(SELECT j.value FROM ${rows}, json_each(r.before, ${`$.${list}`}) j)`;
    await sql`DELETE FROM properties WHERE id IN ${added('property_ids')}`.execute(tx);
    await sql`DELETE FROM customer_notes WHERE id IN ${added('note_ids')}`.execute(tx);
    await sql`DELETE FROM customer_tags WHERE (customer_id, tag) IN (
      SELECT r.customer_id, j.value FROM ${rows}, json_each(r.before, '$.tags') j)`.execute(tx);
    // email_lower is kept since imports stage it; lower() stands in for older ones (ASCII only).
    const back = await sql`UPDATE customers SET
        name = json_extract(r.before, '$.name'),
        email = json_extract(r.before, '$.email'),
        email_lower = coalesce(json_extract(r.before, '$.email_lower'), lower(json_extract(r.before, '$.email'))),
        phone = json_extract(r.before, '$.phone'),
        address = json_extract(r.before, '$.address'),
        updated_at = ${now}
      FROM ${rows} WHERE customers.id = r.customer_id`.execute(tx);
    restored += Number(back.numAffectedRows ?? 0);
  }
  return { removed, restored };
}

/**
 * The customers an import created or updated, UNDO_ROWS at a time: better-sqlite3 runs each
 * statement on the event loop, and between two pages the server answers what came in meanwhile.
 */
async function* importedCustomers(tx: Tx, importId: string, action: 'created' | 'updated') {
  for (let after = ''; ; ) {
    const rows = await tx
      .selectFrom('customer_import_rows')
      .select('customer_id')
      .where('import_id', '=', importId)
      .where('action', '=', action)
      .where('customer_id', '>', after)
      .orderBy('customer_id')
      .limit(UNDO_ROWS)
      .execute();
    if (!rows.length) return;
    yield rows.map((r) => r.customer_id);
    after = rows[rows.length - 1]!.customer_id;
    await breathe();
  }
}
