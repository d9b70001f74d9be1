import { type SqlBool, sql } from 'kysely';
import { fromCents } from '../../shared/money';
import type { Customer, CustomerListQuery } from '../../shared/schemas/customer';
import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
import type { Queryable } from '../db/database';
import type { CustomersTable } from '../db/schema';
import { toIso } from '../lib/clock';
import { type Account, getAccount } from './accounts';
import { type TimeFilters, whereTimeFilters } from './list-filters';
import { keysetPage, type Page } from './pagination';

/** Customers as lists and records show them: the row with its figures, searched and presented. */

const DAY_MS = 24 * 60 * 60 * 1000;

function escapeLike(value: string): string {
  return value.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type CustomerFigures = {
  tags_json: string;
  notes_json: string;
  paid_cents: number;
  last_job_at: string | null;
};
export type CustomerRow = CustomersTable & CustomerFigures;

/**
 * Customers with everything the API shows about them — tags, notes, lifetime value, last job — in
 * one statement (the win-back period is the account's, read once by the caller). The figures are kept current by triggers in every
 * writer's transaction (migration 0021), so a page reads one figures row per customer.
 */
export function selectCustomers(db: Queryable) {
  return db
    .selectFrom('customers as c')
    .leftJoin('customer_figures as f', 'f.customer_id', 'c.id')
    .selectAll('c')
    .select([
      sql<string>`coalesce(f.tags_json, '[]')`.as('tags_json'),
      sql<string>`coalesce(f.notes_json, '[]')`.as('notes_json'),
      sql<number>`coalesce(f.paid_cents, 0)`.as('paid_cents'),
      'f.last_job_at',
    ]);
}

/** A customer as the API returns it. Lapsed: had a completed job, and none within the win-back period. */
export function presentCustomer(row: CustomerRow, now: Date, winbackAfterDays: number): Customer {
  return presentWithCutoff(row, lapsedCutoff(now, winbackAfterDays));
}

function lapsedCutoff(now: Date, winbackAfterDays: number): string {
  return toIso(new Date(now.getTime() - winbackAfterDays * DAY_MS));
}

function presentWithCutoff(row: CustomerRow, cutoff: string): Customer {
  return {
    id: row.id,
    object: 'customer' as const,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    tags: JSON.parse(row.tags_json) as string[],
    notes: JSON.parse(row.notes_json) as Customer['notes'],
    lifetime_value: fromCents(Number(row.paid_cents)),
    last_job_at: row.last_job_at,
    lapsed: row.last_job_at !== null && row.last_job_at < cutoff,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

/** The account's win-back period, which decides whether each of its customers is lapsed. */
export async function winbackDays(db: Queryable, accountId: string): Promise<number> {
  return (await getAccount(db, accountId)).config.winback_after_days;
}

export async function listCustomers(
  ctx: AppContext,
  account: Pick<Account, 'id' | 'config'>,
  query: CustomerListQuery & TimeFilters,
): Promise<Page<Customer>> {
  const accountId = account.id;
  const days = account.config.winback_after_days;
  const now = ctx.clock.now();
  const cutoff = query.lapsed === undefined ? undefined : lapsedCutoff(now, days);
  const plain =
    !query.q &&
    !query.tag &&
    cutoff === undefined &&
    !query.created_after &&
    !query.created_before &&
    !query.updated_since;
  return keysetPage(
    query,
    'cus',
    (beforeId, limit) => {
      // The list as the UI first opens it, and every page after: the one shape worth compiling once.
      if (plain) {
        return runCompiledOnce(
          ctx.db,
          beforeId ? 'customers page after' : 'customers page',
          { accountId, beforeId: beforeId ?? '', limit },
          (v) => {
            let q = selectCustomers(ctx.db).where('c.account_id', '=', v.accountId);
            if (beforeId) q = q.where('c.id', '<', v.beforeId);
            return q.orderBy('c.id', 'desc').limit(v.limit);
          },
        );
      }
      let q = selectCustomers(ctx.db).where('c.account_id', '=', accountId);
      if (beforeId) q = q.where('c.id', '<', beforeId);
      if (query.q) {
        const text = query.q;
        const pattern = `%${escapeLike(text.toLowerCase())}%`;
        q = q.where((eb) =>
          eb.or([
            eb(sql`lower(c.name)`, 'like', sql`${pattern} escape '\\'`),
            eb('c.email_lower', 'like', sql<string>`${pattern} escape '\\'`),
            eb('c.phone', 'like', sql<string>`${pattern} escape '\\'`),
            ...phoneDigitsMatch(text),
          ]),
        );
      }
      if (query.tag) {
        const tag = query.tag;
        q = q.where((eb) =>
          eb.exists(
            eb
              .selectFrom('customer_tags as t')
              .select('t.tag')
              .whereRef('t.customer_id', '=', 'c.id')
              .where('t.tag', '=', tag),
          ),
        );
      }
      q = whereTimeFilters(q, 'c', query);
      if (cutoff !== undefined) {
        const completed = (since?: string) =>
          sql<SqlBool>`exists (select 1 from jobs j where j.customer_id = c.id and j.status = 'completed'${
            since ? sql` and j.completed_at >= ${since}` : sql``
          })`;
        q = query.lapsed
          ? q.where(sql<SqlBool>`(${completed()} and not ${completed(cutoff)})`)
          : q.where(sql<SqlBool>`(not ${completed()} or ${completed(cutoff)})`);
      }
      return q.orderBy('c.id', 'desc').limit(limit).execute();
    },
    (rows) => {
      const lapsedBefore = lapsedCutoff(now, days);
      return rows.map((row) => presentWithCutoff(row, lapsedBefore));
    },
  );
}

/**
 * A phone typed as bare digits ("4165550100") finds "+1 416 555 0100": both sides are compared
 * without spaces, dashes, dots, brackets or plus signs.
 */
function phoneDigitsMatch(q: string) {
  const digits = q.replace(/\D/g, '');
  if (digits.length < 3 || digits.length !== q.replace(/[\s().+-]/g, '').length) return [];
  const bare = sql<string>`replace(replace(replace(replace(replace(replace(coalesce(c.phone, ''), ' ', ''), '-', ''), '.', ''), '(', ''), ')', ''), '+', '')`;
  return [sql<boolean>`${bare} like ${`%${digits}%`}`];
}
