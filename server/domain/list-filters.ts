import { type Expression, expressionBuilder, type SqlBool, sql } from 'kysely';
import { addDays, startOfDay } from '../../shared/time-zone';
import type { Queryable } from '../db/database';
import type { Database } from '../db/schema';
import { toIso } from '../lib/clock';
import { getAccount } from './accounts';

/** The filters every list takes on its records' timestamps (v1's created_after, created_before, updated_since). */
export interface TimeFilters {
  created_after?: string | undefined;
  created_before?: string | undefined;
  updated_since?: string | undefined;
}

/** The filters of lists whose records belong to a customer (v1's client_id, and customer_email). */
export interface OwnerFilters {
  customer_id?: string | undefined;
  customer_email?: string | undefined;
}

/** The period a list of dated records asks for (jobs and bookings by start, reviews by arrival). */
export interface PeriodFilters {
  from?: string | undefined;
  to?: string | undefined;
}

/** Any list query builder: Kysely's where() also takes a ready condition. */
export interface Filterable<Q> {
  where(condition: Expression<SqlBool>): Q;
}

/**
 * Narrows a list to the records created in [created_after, created_before) and changed at or
 * after updated_since. `alias` is how the query names the listed table.
 */
export function whereTimeFilters<Q extends Filterable<Q>>(query: Q, alias: string, filters: TimeFilters): Q {
  const column = (name: 'created_at' | 'updated_at') => sql.ref<string>(`${alias}.${name}`);
  let q = query;
  if (filters.created_after) q = q.where(sql<SqlBool>`${column('created_at')} >= ${filters.created_after}`);
  if (filters.created_before) q = q.where(sql<SqlBool>`${column('created_at')} < ${filters.created_before}`);
  if (filters.updated_since) q = q.where(sql<SqlBool>`${column('updated_at')} >= ${filters.updated_since}`);
  return q;
}

/**
 * Narrows a list of customer-owned records to one customer, named by id or by e-mail (e-mails
 * compare case-insensitively, as customers are found by email_lower everywhere).
 */
export function whereOwnerFilters<Q extends Filterable<Q>>(
  query: Q,
  alias: string,
  filters: OwnerFilters,
): Q {
  const ownerId = sql.ref<string>(`${alias}.customer_id`);
  let q = query;
  if (filters.customer_id) q = q.where(sql<SqlBool>`${ownerId} = ${filters.customer_id}`);
  if (filters.customer_email) {
    const eb = expressionBuilder<Database, never>();
    q = q.where(
      eb.exists(
        eb
          .selectFrom('customers as owner')
          .select('owner.id')
          .where('owner.id', '=', ownerId)
          .where('owner.email_lower', '=', filters.customer_email.toLowerCase()),
      ),
    );
  }
  return q;
}

/** A list bound as a UTC timestamp: a date means that day in the account's zone (`to` includes the day). */
async function boundToInstant(db: Queryable, accountId: string, bound: string, edge: 'from' | 'to') {
  if (bound.length !== 10) return bound;
  const { config } = await getAccount(db, accountId);
  return toIso(startOfDay(edge === 'to' ? addDays(bound, 1) : bound, config.timezone));
}

/** The period's bounds as UTC timestamps, for wherePeriod. */
export async function periodInstants(
  db: Queryable,
  accountId: string,
  { from, to }: PeriodFilters,
): Promise<PeriodFilters> {
  return {
    from: from && (await boundToInstant(db, accountId, from, 'from')),
    to: to && (await boundToInstant(db, accountId, to, 'to')),
  };
}

/** Narrows a list to the records whose `column` (alias-qualified) falls in [from, to). */
export function wherePeriod<Q extends Filterable<Q>>(query: Q, column: string, period: PeriodFilters): Q {
  const at = sql.ref<string>(column);
  let q = query;
  if (period.from) q = q.where(sql<SqlBool>`${at} >= ${period.from}`);
  if (period.to) q = q.where(sql<SqlBool>`${at} < ${period.to}`);
  return q;
}
