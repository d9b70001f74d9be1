import type { Customer, CustomerCreate, CustomerUpdate, MailMessage } from '../../shared/schemas/customer';
import { MAX_TAGS, NO_WAY_TO_REACH } from '../../shared/schemas/customer';
import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
import type { Queryable, Tx } from '../db/database';
import type { CustomersTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { ApiError, conflict, invalidState, notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { presentCustomer, selectCustomers, winbackDays } from './customer-list';
import { recordEvent } from './events';
import { fillTemplate, queueMail } from './mail';
import { addFirstPlace } from './properties';

async function findRowByEmail(
  db: Queryable,
  accountId: string,
  email: string,
): Promise<CustomersTable | undefined> {
  // Every invoice or quote created for an e-mail looks its customer up: compiled once.
  const [row] = await runCompiledOnce(
    db,
    'customer by email',
    { accountId, email: email.trim().toLowerCase() },
    (v) =>
      db
        .selectFrom('customers')
        .selectAll()
        .where('account_id', '=', v.accountId)
        .where('email_lower', '=', v.email),
  );
  return row;
}

async function getRow(db: Queryable, accountId: string, id: string): Promise<CustomersTable> {
  const row = await db
    .selectFrom('customers')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!row) throw notFound(`No customer ${id}`);
  return row;
}

async function getRowByEmail(db: Queryable, accountId: string, email: string): Promise<CustomersTable> {
  const row = await findRowByEmail(db, accountId, email);
  if (!row) throw notFound(`No customer with e-mail ${email}`);
  return row;
}

async function loadCustomer(db: Queryable, accountId: string, column: 'id' | 'email_lower', value: string) {
  return selectCustomers(db)
    .where('c.account_id', '=', accountId)
    .where(`c.${column}`, '=', value)
    .executeTakeFirst();
}

export async function getCustomer(ctx: AppContext, accountId: string, id: string, db: Queryable = ctx.db) {
  const row = await loadCustomer(db, accountId, 'id', id);
  if (!row) throw notFound(`No customer ${id}`);
  return presentCustomer(row, ctx.clock.now(), await winbackDays(db, accountId));
}

export async function getCustomerByEmail(
  ctx: AppContext,
  accountId: string,
  email: string,
  db: Queryable = ctx.db,
) {
  const row = await loadCustomer(db, accountId, 'email_lower', email.trim().toLowerCase());
  if (!row) throw notFound(`No customer with e-mail ${email}`);
  return presentCustomer(row, ctx.clock.now(), await winbackDays(db, accountId));
}

/** Resolves a customer id or e-mail (portal paths use e-mails, v1 paths use ids). */
export async function resolveCustomerId(
  db: Queryable,
  accountId: string,
  idOrEmail: string,
): Promise<string> {
  const row = idOrEmail.includes('@')
    ? await getRowByEmail(db, accountId, idOrEmail)
    : await getRow(db, accountId, idOrEmail);
  return row.id;
}

/**
 * Refuses what needs an e-mail for a customer without one, saying what can be done instead (409
 * no_email): nothing is queued that cannot go out.
 */
export function requireEmail(
  customer: { name: string; email: string | null },
  what: string,
  instead = 'download or print the PDF and hand it over',
): string {
  // '' is a customer deleted on another device: queueMail refuses it and says so.
  if (customer.email !== null) return customer.email;
  throw new ApiError(
    409,
    'no_email',
    `${customer.name} has no e-mail address, so ${what} cannot be e-mailed: add their e-mail, or ${instead}.`,
    { details: { reason: 'no_email' } },
  );
}

function requireWayToReach(row: { email: string | null; phone: string | null; address: string | null }) {
  if (!row.email && !row.phone && !row.address) throw validationError(NO_WAY_TO_REACH, 'email');
}

async function insertCustomer(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: CustomerCreate,
  id: string = newId('cus', ctx.clock.now().getTime()),
): Promise<Customer> {
  const email = input.email?.trim() || null;
  if (email && (await findRowByEmail(tx, accountId, email))) {
    throw conflict(`A customer with e-mail ${email} already exists`, 'email');
  }
  const now = isoNow(ctx.clock);
  const row: CustomersTable = {
    id,
    account_id: accountId,
    name: input.name,
    email,
    email_lower: email?.toLowerCase() ?? null,
    phone: input.phone || null,
    address: input.address || null,
    created_at: now,
    updated_at: now,
    deleted_at: null,
  };
  requireWayToReach(row);
  await tx.insertInto('customers').values(row).execute();
  const tags = [...new Set(input.tags ?? [])];
  if (tags.length) {
    await tx
      .insertInto('customer_tags')
      .values(tags.map((tag) => ({ customer_id: row.id, tag })))
      .execute();
  }
  const customer = await getCustomer(ctx, accountId, row.id, tx);
  await recordEvent(tx, ctx.clock, accountId, 'customer.created', customer);
  if (row.address) await addFirstPlace(tx, ctx, accountId, row.id, row.address);
  return customer;
}

export async function createCustomer(
  ctx: AppContext,
  accountId: string,
  input: CustomerCreate,
): Promise<Customer> {
  return ctx.db.transaction().execute((tx) => insertCustomer(tx, ctx, accountId, input));
}

/**
 * The customer a create body names: by id (which must exist), or by e-mail, created (with its
 * customer.created event) when unknown. Call inside the creating transaction.
 */
export async function findOrCreateCustomer(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: {
    customer_id?: string | undefined;
    email?: string | undefined;
    name?: string | null | undefined;
    phone?: string | null;
    address?: string | null;
    /** The id a new customer gets, when the caller derives it (an action applied on any install). */
    newId?: string;
  },
): Promise<{ id: string; name: string; email: string | null; address: string | null; created: boolean }> {
  if (input.customer_id !== undefined) {
    const row = await tx
      .selectFrom('customers')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', input.customer_id)
      .executeTakeFirst();
    if (!row) throw validationError(`No customer ${input.customer_id} in this account`, 'customer_id');
    if (input.email !== undefined && row.email_lower !== input.email.trim().toLowerCase()) {
      throw validationError(
        `customer_id ${input.customer_id} is ${row.email ?? 'a customer without e-mail'}, not ${input.email}: send one of them`,
        'customer_id',
      );
    }
    return { id: row.id, name: row.name, email: row.email, address: row.address, created: false };
  }
  if (input.email === undefined) throw validationError('send customer_id or customer_email', 'customer_id');
  const existing = await findRowByEmail(tx, accountId, input.email);
  if (existing) {
    return {
      id: existing.id,
      name: existing.name,
      email: existing.email,
      address: existing.address,
      created: false,
    };
  }
  const name = input.name?.trim() || input.email.split('@')[0]!;
  const customer = await insertCustomer(
    tx,
    ctx,
    accountId,
    { name, email: input.email, phone: input.phone ?? null, address: input.address ?? null },
    input.newId,
  );
  return {
    id: customer.id,
    name: customer.name,
    email: customer.email,
    address: customer.address,
    created: true,
  };
}

export async function updateCustomer(
  ctx: AppContext,
  accountId: string,
  idOrEmail: string,
  patch: CustomerUpdate,
): Promise<Customer> {
  return ctx.db.transaction().execute(async (tx) => {
    const id = await resolveCustomerId(tx, accountId, idOrEmail);
    const current = await getRow(tx, accountId, id);
    const email = patch.email === undefined ? current.email : patch.email?.trim() || null;
    const phone = patch.phone === undefined ? current.phone : patch.phone || null;
    const address = patch.address === undefined ? current.address : patch.address || null;
    requireWayToReach({ email, phone, address });
    if (email) {
      const other = await findRowByEmail(tx, accountId, email);
      if (other && other.id !== id) throw conflict(`A customer with e-mail ${email} already exists`, 'email');
    }
    await tx
      .updateTable('customers')
      .set({
        ...(patch.name !== undefined && { name: patch.name }),
        ...(patch.email !== undefined && { email, email_lower: email?.toLowerCase() ?? null }),
        ...(patch.phone !== undefined && { phone }),
        ...(patch.address !== undefined && { address }),
        updated_at: isoNow(ctx.clock),
      })
      .where('id', '=', id)
      .execute();
    // A customer who had nowhere to go gets the address as their first place; one with places keeps them.
    if (patch.address !== undefined && address) await addFirstPlace(tx, ctx, accountId, id, address);
    return getCustomer(ctx, accountId, id, tx);
  });
}

/** Deletes a customer that has no business records; one with invoices, quotes, jobs or bookings is kept (409). */
export async function deleteCustomer(
  ctx: AppContext,
  accountId: string,
  idOrEmail: string,
): Promise<{ id: string }> {
  return ctx.db.transaction().execute(async (tx) => {
    const id = await resolveCustomerId(tx, accountId, idOrEmail);
    const referenced = await tx
      .selectNoFrom((eb) => [
        eb.exists(eb.selectFrom('invoices').select('id').where('customer_id', '=', id)).as('invoices'),
        eb.exists(eb.selectFrom('quotes').select('id').where('customer_id', '=', id)).as('quotes'),
        eb.exists(eb.selectFrom('jobs').select('id').where('customer_id', '=', id)).as('jobs'),
        eb.exists(eb.selectFrom('bookings').select('id').where('customer_id', '=', id)).as('bookings'),
        eb
          .exists(eb.selectFrom('service_plans').select('id').where('customer_id', '=', id))
          .as('service plans'),
      ])
      .executeTakeFirstOrThrow();
    const kept = Object.entries(referenced)
      .filter(([, has]) => Boolean(has))
      .map(([what]) => what);
    if (kept.length) {
      throw invalidState(`This customer has ${kept.join(', ')} and cannot be deleted`, { records: kept });
    }
    await tx.deleteFrom('customer_tags').where('customer_id', '=', id).execute();
    await tx.deleteFrom('customer_notes').where('customer_id', '=', id).execute();
    await tx.deleteFrom('properties').where('customer_id', '=', id).execute();
    await tx.updateTable('reviews').set({ customer_id: null }).where('customer_id', '=', id).execute();
    await tx.updateTable('mail_messages').set({ customer_id: null }).where('customer_id', '=', id).execute();
    await tx.deleteFrom('customers').where('id', '=', id).execute();
    return { id };
  });
}

/**
 * The customer after a change to its tags or notes, which are part of the customer as the API
 * shows it: its updated_at moves with them, so updated_since lists see the change.
 */
async function touchedCustomer(tx: Tx, ctx: AppContext, accountId: string, id: string, now: string) {
  await tx.updateTable('customers').set({ updated_at: now }).where('id', '=', id).execute();
  return getCustomer(ctx, accountId, id, tx);
}

export async function addTags(ctx: AppContext, accountId: string, idOrEmail: string, tags: string[]) {
  return ctx.db.transaction().execute(async (tx) => {
    const id = await resolveCustomerId(tx, accountId, idOrEmail);
    const existing = await tx
      .selectFrom('customer_tags')
      .select('tag')
      .where('customer_id', '=', id)
      .execute();
    const total = new Set([...existing.map((row) => row.tag), ...tags]).size;
    if (total > MAX_TAGS) {
      throw validationError(
        `A customer can have at most ${MAX_TAGS} tags; this would make ${total}. Remove some first.`,
        'tags',
      );
    }
    await tx
      .insertInto('customer_tags')
      .values([...new Set(tags)].map((tag) => ({ customer_id: id, tag })))
      .onConflict((oc) => oc.doNothing())
      .execute();
    return touchedCustomer(tx, ctx, accountId, id, isoNow(ctx.clock));
  });
}

export async function removeTag(ctx: AppContext, accountId: string, idOrEmail: string, tag: string) {
  return ctx.db.transaction().execute(async (tx) => {
    const id = await resolveCustomerId(tx, accountId, idOrEmail);
    await tx.deleteFrom('customer_tags').where('customer_id', '=', id).where('tag', '=', tag).execute();
    return touchedCustomer(tx, ctx, accountId, id, isoNow(ctx.clock));
  });
}

export async function addNote(ctx: AppContext, accountId: string, idOrEmail: string, text: string) {
  return ctx.db.transaction().execute(async (tx) => {
    const id = await resolveCustomerId(tx, accountId, idOrEmail);
    const now = isoNow(ctx.clock);
    await tx
      .insertInto('customer_notes')
      .values({ id: newId('note', ctx.clock.now().getTime()), customer_id: id, text, created_at: now })
      .execute();
    return touchedCustomer(tx, ctx, accountId, id, now);
  });
}

/**
 * Queues a win-back e-mail from the config's template (or the owner's own message). It is meant
 * for lapsed customers and the UI offers it there, but the owner decides: a customer who booked
 * once and never again is worth a note too, so it is not refused for anyone.
 */
export async function queueWinback(
  ctx: AppContext,
  accountId: string,
  idOrEmail: string,
  input: { offer?: string | undefined; message?: string | undefined },
): Promise<{ customer: Customer; message: MailMessage }> {
  return ctx.db.transaction().execute(async (tx) => {
    const id = await resolveCustomerId(tx, accountId, idOrEmail);
    const customer = await getCustomer(ctx, accountId, id, tx);
    const to = requireEmail(customer, 'a win-back message', 'call them or send a text');
    const { config } = await getAccount(tx, accountId);
    const values = {
      customer_name: customer.name,
      business_name: config.business_name,
      offer: input.offer ?? '',
    };
    const message = await queueMail(tx, ctx, accountId, {
      kind: 'winback',
      customerId: id,
      documentId: null,
      to,
      subject: fillTemplate(config.winback_subject, values),
      body: fillTemplate(input.message ?? config.winback_message, values),
      offer: input.offer ?? null,
    });
    return { customer, message };
  });
}
