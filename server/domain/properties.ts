import { placeLine } from '../../shared/place';
import type {
  Property,
  PropertyCreate,
  PropertyListQuery,
  PropertyUpdate,
} from '../../shared/schemas/property';
import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
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

/**
 * The place a record of this customer is for: the one named, which must be one of the customer's
 * active places; the customer's default when none is named (undefined); none for null.
 */
export async function placeFor(
  db: Queryable,
  accountId: string,
  customerId: string,
  requested: string | null | undefined,
): Promise<PropertiesTable | null> {
  if (requested === null) return null;
  if (requested === undefined) {
    // Every document created without a place asks for the customer's default: compiled once, and
    // filtered rather than sorted by is_default, so it walks properties_customer with no sort step.
    const [row] = await runCompiledOnce(db, 'default place', { customerId }, (v) =>
      db
        .selectFrom('properties')
        .selectAll()
        .where('customer_id', '=', v.customerId)
        .where('status', '=', 'active')
        .where('is_default', '=', 1)
        .orderBy('id', 'desc')
        .limit(1),
    );
    return row ?? null;
  }
  const row = await db
    .selectFrom('properties')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', requested)
    .executeTakeFirst();
  if (!row) throw validationError(`No place ${requested} in this account`, 'property_id');
  if (row.customer_id !== customerId)
    throw validationError(
      `Place ${requested} is another customer's: pick one of this customer's places`,
      'property_id',
    );
  if (row.status === 'archived')
    throw validationError(
      `Place ${requested} is archived: pick an active place, or restore it first`,
      'property_id',
    );
  return row;
}

/** The address of a record's place, or `fallback` for a record that names none. */
export function placeAddress(place: PropertiesTable | null, fallback: string | null): string | null {
  return place ? placeLine(place) : fallback;
}

type WorkPlace = { property_id: string | null; address: string | null };

/**
 * Where a new job or service plan is. An address typed for it alone names no place; otherwise it
 * goes to the place named, or the customer's default, at that place's address (the customer's
 * address when there is no place).
 */
export async function newWorkPlace(
  db: Queryable,
  accountId: string,
  customer: { id: string; address: string | null },
  input: { property_id?: string | null | undefined; address?: string | null | undefined },
): Promise<WorkPlace> {
  if (input.address !== undefined && input.property_id === undefined)
    return { property_id: null, address: input.address };
  const place = await placeFor(db, accountId, customer.id, input.property_id);
  return {
    property_id: place?.id ?? null,
    address: placeAddress(place, input.address === undefined ? customer.address : input.address),
  };
}

/**
 * Where a changed job or service plan is: a place named in the patch (its address); an address
 * typed alone, which leaves the place when it differs from where the work was; or where it was.
 */
export async function changedWorkPlace(
  db: Queryable,
  accountId: string,
  current: { customer_id: string; property_id?: string | null | undefined; address: string | null },
  patch: { property_id?: string | null | undefined; address?: string | null | undefined },
): Promise<WorkPlace> {
  if (patch.property_id !== undefined) {
    const place = await placeFor(db, accountId, current.customer_id, patch.property_id);
    return {
      property_id: place?.id ?? null,
      address: placeAddress(place, patch.address === undefined ? current.address : patch.address),
    };
  }
  if (patch.address === undefined || patch.address === current.address)
    return { property_id: current.property_id ?? null, address: current.address };
  return { property_id: null, address: patch.address };
}

/** A record's place for work made from it without the owner (plan invoices): only if still active. */
export async function activePlaceId(
  db: Queryable,
  propertyId: string | null | undefined,
): Promise<string | null> {
  if (!propertyId) return null;
  const row = await db
    .selectFrom('properties')
    .select('id')
    .where('id', '=', propertyId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  return row?.id ?? null;
}

/**
 * A new customer given an address gets it as their default place (street holding the whole
 * string, as migration 0015 did), so their work has somewhere to go from the start.
 */
export async function addFirstPlace(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  customerId: string,
  address: string,
): Promise<void> {
  const existing = await tx
    .selectFrom('properties')
    .select('id')
    .where('customer_id', '=', customerId)
    .where('status', '=', 'active')
    .executeTakeFirst();
  if (existing) return;
  const now = isoNow(ctx.clock);
  const row: PropertiesTable = {
    ...EMPTY_PLACE,
    id: newId('prop', ctx.clock.now().getTime()),
    account_id: accountId,
    customer_id: customerId,
    street: address.trim(),
    is_default: 1,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto('properties').values(row).execute();
  await recordEvent(tx, ctx.clock, accountId, 'property.created', presentProperty(row));
}

const EMPTY_PLACE = {
  label: null,
  unit: null,
  city: null,
  region: null,
  postal_code: null,
  country: null,
  access_notes: null,
  status: 'active',
  archived_at: null,
} as const;

/** Open work at a place follows its address when the place is edited; done work keeps where it was. */
async function followAddress(tx: Tx, place: PropertiesTable, now: string): Promise<void> {
  const address = placeLine(place);
  await tx
    .updateTable('jobs')
    .set({ address, updated_at: now })
    .where('property_id', '=', place.id)
    .where('status', 'in', ['unscheduled', 'scheduled', 'in_progress'])
    .where((eb) => eb.or([eb('address', 'is', null), eb('address', '!=', address)]))
    .execute();
  await tx
    .updateTable('service_plans')
    .set({ address, updated_at: now })
    .where('property_id', '=', place.id)
    .where('status', '=', 'active')
    .where((eb) => eb.or([eb('address', 'is', null), eb('address', '!=', address)]))
    .execute();
}

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
    const updated = await getRow(tx, accountId, id);
    if (placeLine(updated) !== placeLine(current)) await followAddress(tx, updated, now);
    const property = presentProperty(updated);
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
