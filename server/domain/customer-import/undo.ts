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

interface Before {
  name: string;
  email: string | null;
  phone: string | null;
  address: string | null;
  tags: string[];
  note_ids: string[];
  property_ids: string[];
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
  const updated = await tx
    .selectFrom('customer_import_rows')
    .select(['customer_id', 'before', 'stamp'])
    .where('import_id', '=', importId)
    .where('action', '=', 'updated')
    .execute();
  for (const row of updated) {
    const before = JSON.parse(row.before ?? '{}') as Before;
    if (before.property_ids.length) {
      const edited = await tx
        .selectFrom('properties')
        .select('id')
        .where('id', 'in', before.property_ids)
        .where('updated_at', '!=', row.stamp)
        .executeTakeFirst();
      if (edited)
        throw invalidState('This import can no longer be undone: a place it added was edited since');
      await tx.deleteFrom('properties').where('id', 'in', before.property_ids).execute();
    }
    if (before.tags.length) {
      await tx
        .deleteFrom('customer_tags')
        .where('customer_id', '=', row.customer_id)
        .where('tag', 'in', before.tags)
        .execute();
    }
    if (before.note_ids.length)
      await tx.deleteFrom('customer_notes').where('id', 'in', before.note_ids).execute();
    await tx
      .updateTable('customers')
      .set({
        name: before.name,
        email: before.email,
        email_lower: before.email?.toLowerCase() ?? null,
        phone: before.phone,
        address: before.address,
        updated_at: now,
      })
      .where('id', '=', row.customer_id)
      .execute();
  }
  return { removed: Number(removed.numAffectedRows ?? 0), restored: updated.length };
}
