import type {
  Property,
  PropertyCreate,
  PropertyListQuery,
  PropertyUpdate,
} from '../../shared/schemas/property';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { PropertiesTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { recordEvent } from './events';
import { keysetPage, type Page } from './pagination';

export function presentProperty(row: PropertiesTable): Property {
  return {
    id: row.id,
    object: 'property',
    customer_id: row.customer_id,
    label: row.label,
    street: row.street,
    unit: row.unit,
    city: row.city,
    region: row.region,
    postal_code: row.postal_code,
    country: row.country,
    access_notes: row.access_notes,
    is_default: row.is_default === 1,
    status: row.status,
    archived_at: row.archived_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  };
}

export async function listProperties(
  ctx: AppContext,
  accountId: string,
  query: PropertyListQuery,
): Promise<Page<Property>> {
  return keysetPage(
    query,
    'prop',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('properties').selectAll().where('account_id', '=', accountId);
      if (beforeId) q = q.where('id', '<', beforeId);
      if (query.customer_id) q = q.where('customer_id', '=', query.customer_id);
      if (query.status) q = q.where('status', '=', query.status);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => rows.map(presentProperty),
  );
}

async function getRow(db: Queryable, accountId: string, id: string): Promise<PropertiesTable> {
  const row = await db
    .selectFrom('properties')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No property ${id}`);
  return row;
}

export async function getProperty(ctx: AppContext, accountId: string, id: string): Promise<Property> {
  return presentProperty(await getRow(ctx.db, accountId, id));
}

/** The one default place of a customer: making one the default takes it from the others. */
async function makeDefault(tx: Tx, customerId: string, propertyId: string, now: string) {
  await tx
    .updateTable('properties')
    .set({ is_default: 0, updated_at: now })
    .where('customer_id', '=', customerId)
    .where('id', '!=', propertyId)
    .where('is_default', '=', 1)
    .execute();
}

const blank = (value: string | null | undefined) => value || null;

export async function createProperty(
  ctx: AppContext,
  accountId: string,
  input: PropertyCreate,
): Promise<Property> {
  return ctx.db.transaction().execute(async (tx) => {
    const customer = await tx
      .selectFrom('customers')
      .select('id')
      .where('account_id', '=', accountId)
      .where('id', '=', input.customer_id)
      .executeTakeFirst();
    if (!customer) throw validationError(`No customer ${input.customer_id} in this account`, 'customer_id');
    const hasDefault = await tx
      .selectFrom('properties')
      .select('id')
      .where('customer_id', '=', customer.id)
      .where('is_default', '=', 1)
      .where('status', '=', 'active')
      .executeTakeFirst();
    const now = isoNow(ctx.clock);
    const row: PropertiesTable = {
      id: newId('prop', ctx.clock.now().getTime()),
      account_id: accountId,
      customer_id: customer.id,
      label: blank(input.label),
      street: input.street,
      unit: blank(input.unit),
      city: blank(input.city),
      region: blank(input.region),
      postal_code: blank(input.postal_code),
      country: blank(input.country),
      access_notes: blank(input.access_notes),
      // A customer's first place is their default.
      is_default: input.is_default || !hasDefault ? 1 : 0,
      status: 'active',
      archived_at: null,
      created_at: now,
      updated_at: now,
    };
    await tx.insertInto('properties').values(row).execute();
    if (row.is_default) await makeDefault(tx, customer.id, row.id, now);
    const property = presentProperty(row);
    await recordEvent(tx, ctx.clock, accountId, 'property.created', property);
    return property;
  });
}

export async function updateProperty(
  ctx: AppContext,
  accountId: string,
  id: string,
  patch: PropertyUpdate,
): Promise<Property> {
  return ctx.db.transaction().execute(async (tx) => {
    const current = await getRow(tx, accountId, id);
    if (current.status === 'archived') throw invalidState(`Property ${id} is archived and cannot be changed`);
    if (patch.is_default === false && current.is_default === 1) {
      throw validationError('Make another place the default instead', 'is_default');
    }
    const now = isoNow(ctx.clock);
    const text = (key: Exclude<keyof PropertyUpdate, 'is_default' | 'street'>) =>
      patch[key] === undefined ? {} : { [key]: blank(patch[key]) };
    await tx
      .updateTable('properties')
      .set({
        ...text('label'),
        ...(patch.street !== undefined && { street: patch.street }),
        ...text('unit'),
        ...text('city'),
        ...text('region'),
        ...text('postal_code'),
        ...text('country'),
        ...text('access_notes'),
        ...(patch.is_default && { is_default: 1 }),
        updated_at: now,
      })
      .where('id', '=', id)
      .execute();
    if (patch.is_default) await makeDefault(tx, current.customer_id, id, now);
    const property = presentProperty(await getRow(tx, accountId, id));
    await recordEvent(tx, ctx.clock, accountId, 'property.updated', property);
    return property;
  });
}

/**
 * Archives a place: kept on the work done there, offered for no new work. Archiving the default
 * passes the default to the customer's newest other active place.
 */
export async function archiveProperty(ctx: AppContext, accountId: string, id: string): Promise<Property> {
  return ctx.db.transaction().execute(async (tx) => {
    const current = await getRow(tx, accountId, id);
    if (current.status === 'archived') return presentProperty(current);
    const now = isoNow(ctx.clock);
    await tx
      .updateTable('properties')
      .set({ status: 'archived', archived_at: now, is_default: 0, updated_at: now })
      .where('id', '=', id)
      .execute();
    if (current.is_default) {
      const next = await tx
        .selectFrom('properties')
        .select('id')
        .where('customer_id', '=', current.customer_id)
        .where('status', '=', 'active')
        .orderBy('id', 'desc')
        .executeTakeFirst();
      if (next) {
        await tx
          .updateTable('properties')
          .set({ is_default: 1, updated_at: now })
          .where('id', '=', next.id)
          .execute();
      }
    }
    const property = presentProperty(await getRow(tx, accountId, id));
    await recordEvent(tx, ctx.clock, accountId, 'property.archived', property);
    return property;
  });
}
