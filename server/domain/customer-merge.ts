import { sql } from 'kysely';
import type { Customer, PossibleDuplicate } from '../../shared/schemas/customer';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import { isoNow } from '../lib/clock';
import { validationError } from '../lib/errors';
import { presentCustomer, selectCustomers, winbackDays } from './customer-list';
import { getCustomer, resolveCustomerId } from './customers';

const DUPLICATES_LIMIT = 10;

const digitsOf = (phone: string | null | undefined) => (phone ?? '').replace(/\D/g, '');

/** The same number, written with or without its country code ("+1 604…" and "604…"). */
function samePhone(a: string, b: string): boolean {
  const [shorter, longer] = a.length <= b.length ? [a, b] : [b, a];
  return shorter === longer || (shorter.length >= 7 && longer.endsWith(shorter));
}

/** Whether two strings are one insertion, deletion or substitution apart. */
function oneEditApart(a: string, b: string): boolean {
  if (a === b || Math.abs(a.length - b.length) > 1) return false;
  let i = 0;
  while (i < a.length && i < b.length && a[i] === b[i]) i++;
  if (a.length === b.length) return a.slice(i + 1) === b.slice(i + 1);
  return a.length > b.length ? a.slice(i + 1) === b.slice(i) : a.slice(i) === b.slice(i + 1);
}

/**
 * Customers the one about to be added may already be: the same name and the same phone digits,
 * or an e-mail one letter off. Pointed out, never merged on their own (docs/decisions.md).
 */
export async function findPossibleDuplicates(
  ctx: AppContext,
  accountId: string,
  probe: { name?: string | undefined; email?: string | undefined; phone?: string | undefined },
): Promise<PossibleDuplicate[]> {
  const name = probe.name?.trim().toLowerCase() ?? '';
  const phone = digitsOf(probe.phone);
  const email = probe.email?.trim().toLowerCase() ?? '';
  const found = new Map<string, PossibleDuplicate>();
  const now = ctx.clock.now();
  const days = await winbackDays(ctx.db, accountId);
  if (name && phone.length >= 3) {
    const rows = await selectCustomers(ctx.db)
      .where('c.account_id', '=', accountId)
      .where(sql`lower(trim(c.name))`, '=', name)
      .where('c.phone', 'is not', null)
      .execute();
    for (const row of rows) {
      if (samePhone(digitsOf(row.phone), phone))
        found.set(row.id, { customer: presentCustomer(row, now, days), reason: 'same_name_and_phone' });
    }
  }
  if (email.includes('@')) {
    const rows = await selectCustomers(ctx.db)
      .where('c.account_id', '=', accountId)
      .where(sql`length(c.email_lower)`, '>=', email.length - 1)
      .where(sql`length(c.email_lower)`, '<=', email.length + 1)
      .execute();
    for (const row of rows) {
      if (!found.has(row.id) && row.email_lower && oneEditApart(row.email_lower, email))
        found.set(row.id, { customer: presentCustomer(row, now, days), reason: 'similar_email' });
    }
  }
  return [...found.values()].slice(0, DUPLICATES_LIMIT);
}

/** A column whose rows name a customer; `inKey` when it is part of its table's primary key. */
export interface CustomerReference {
  table: string;
  column: string;
  inKey: boolean;
}

/**
 * Merges customer `from` into `into`: every record of `from` (jobs, quotes, invoices and so their
 * payments, bookings, plans, reviews, e-mails, notes, tags) moves to `into`, which takes the
 * e-mail, phone and address it lacks; `from` is deleted. The merge is recorded in
 * customer_merges, which sync turns into the alias an e-mail merge writes, so every device makes
 * the same one and later changes made to `from` elsewhere land on `into`.
 */
export async function mergeCustomers(
  ctx: AppContext,
  accountId: string,
  intoIdOrEmail: string,
  fromIdOrEmail: string,
  /** Every column naming a customer: sync/tables.ts#customerReferences, which knows every table. */
  references: CustomerReference[],
): Promise<Customer> {
  return ctx.db.transaction().execute(async (tx) => {
    const intoId = await resolveCustomerId(tx, accountId, intoIdOrEmail);
    const fromId = await resolveCustomerId(tx, accountId, fromIdOrEmail).catch((error: unknown) => {
      throw Object.assign(validationError((error as Error).message, 'from'), { cause: error });
    });
    if (intoId === fromId) throw validationError('A customer cannot be merged into itself', 'from');
    const into = await loadRow(tx, intoId);
    const from = await loadRow(tx, fromId);
    const now = isoNow(ctx.clock);
    // First, so the hub learns of the merge before the survivor takes the other's e-mail.
    await tx
      .insertInto('customer_merges')
      .values({ from_id: fromId, account_id: accountId, to_id: intoId, merged_at: now })
      .execute();
    await followMergeHere(tx, fromId, intoId);
    const movedPlaces = new Set(
      (await tx.selectFrom('properties').select('id').where('customer_id', '=', fromId).execute()).map(
        (p) => p.id,
      ),
    );
    for (const { table, column, inKey } of references) {
      if (inKey) {
        await sql`UPDATE OR IGNORE ${sql.table(table)} SET ${sql.ref(column)} = ${intoId} WHERE ${sql.ref(column)} = ${fromId}`.execute(
          tx,
        );
        await sql`DELETE FROM ${sql.table(table)} WHERE ${sql.ref(column)} = ${fromId}`.execute(tx);
      } else {
        await sql`UPDATE ${sql.table(table)} SET ${sql.ref(column)} = ${intoId} WHERE ${sql.ref(column)} = ${fromId}`.execute(
          tx,
        );
      }
    }
    // The survivor keeps its default place; the other customer's default becomes one of its places.
    const defaults = await tx
      .selectFrom('properties')
      .select('id')
      .where('customer_id', '=', intoId)
      .where('is_default', '=', 1)
      .execute();
    const kept = defaults.find((p) => !movedPlaces.has(p.id)) ?? defaults[0];
    if (kept) {
      await tx
        .updateTable('properties')
        .set({ is_default: 0, updated_at: now })
        .where('customer_id', '=', intoId)
        .where('is_default', '=', 1)
        .where('id', '!=', kept.id)
        .execute();
    }
    await tx.deleteFrom('customers').where('id', '=', fromId).execute();
    await tx
      .updateTable('customers')
      .set({
        email: into.email ?? from.email,
        email_lower: into.email_lower ?? from.email_lower,
        phone: into.phone ?? from.phone,
        address: into.address ?? from.address,
        updated_at: now,
      })
      .where('id', '=', intoId)
      .execute();
    return getCustomer(ctx, accountId, intoId, tx);
  });

  async function loadRow(db: Queryable, id: string) {
    return db.selectFrom('customers').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
  }
}

/**
 * This device follows its own merge as it follows the hub's: rows of the merged customer pulled
 * later (edited elsewhere before the merge reached there) land on the survivor.
 */
async function followMergeHere(db: Queryable, fromId: string, toId: string): Promise<void> {
  await sql`INSERT OR REPLACE INTO sync_aliases (tbl, from_id, to_id) VALUES ('customers', ${fromId}, ${toId})`.execute(
    db,
  );
  await sql`UPDATE sync_aliases SET to_id = ${toId} WHERE tbl = 'customers' AND to_id = ${fromId}`.execute(
    db,
  );
}
