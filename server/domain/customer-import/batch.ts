import { sql } from 'kysely';
import { MAX_TAGS } from '../../../shared/schemas/customer';
import type { ImportedCustomer } from '../../../shared/schemas/customer-import';
import type { Queryable } from '../../db/database';
import type { CustomersTable, PropertiesTable } from '../../db/schema';
import { newId } from '../../lib/ids';
import { emptyStage, type StagedRows, type StagedUpdate, stageRows } from './stage';

/** A mapped row waiting to be written, with its row number for the report. */
export interface PendingRow {
  row: number;
  values: string[];
  customer: ImportedCustomer;
}

export type Outcome =
  | { kind: 'added'; row: PendingRow; id: string }
  | { kind: 'updated' | 'skipped'; row: PendingRow }
  | { kind: 'rejected'; row: { row: number; values: string[] }; reason: string };

export interface BatchContext {
  db: Queryable;
  accountId: string;
  importId: string;
  onMatch: 'update' | 'skip';
  /** One timestamp for everything the import writes: a customer whose updated_at differs was touched since. */
  now: string;
  nowMs: number;
}

type Existing = Pick<
  CustomersTable,
  'id' | 'name' | 'email' | 'email_lower' | 'phone' | 'address' | 'updated_at'
>;

/**
 * A list bound as one JSON array: the statement's text is the same whatever the list's length, so
 * one prepared statement serves every batch (an IN list of its own length each time filled the
 * connection's statement cache with a program per length).
 */
const jsonList = (values: readonly unknown[]) =>
  sql`(SELECT value FROM json_each(${JSON.stringify(values)}))`;

const digits = (phone: string | null) => (phone ?? '').replace(/\D/g, '');
const personKey = (name: string, phone: string | null) =>
  `${name.trim().toLowerCase()}\u0000${digits(phone)}`;
const emailKey = (email: string) => `@${email.toLowerCase()}`;

/** The key a row matches customers by: its e-mail, else its name and phone (none without a phone). */
function keyOf(c: { name: string; email: string | null; phone: string | null }): string | null {
  if (c.email) return emailKey(c.email);
  return digits(c.phone) ? personKey(c.name, c.phone) : null;
}

/** Existing customers matching a batch: by e-mail, or by name and phone for one without e-mail. */
async function findMatches(ctx: BatchContext, rows: PendingRow[]): Promise<Map<string, Existing>> {
  const emails = [
    ...new Set(rows.flatMap((r) => (r.customer.email ? [r.customer.email.toLowerCase()] : []))),
  ];
  const names = [
    ...new Set(rows.flatMap((r) => (r.customer.email ? [] : [r.customer.name.trim().toLowerCase()]))),
  ];
  const found = new Map<string, Existing>();
  const columns = ['id', 'name', 'email', 'email_lower', 'phone', 'address', 'updated_at'] as const;
  if (emails.length) {
    const byEmail = await ctx.db
      .selectFrom('customers')
      .select(columns)
      .where('account_id', '=', ctx.accountId)
      .where(sql<boolean>`email_lower IN ${jsonList(emails)}`)
      .execute();
    for (const c of byEmail) found.set(emailKey(c.email!), c);
  }
  if (names.length) {
    const byName = await ctx.db
      .selectFrom('customers')
      .select(columns)
      .where('account_id', '=', ctx.accountId)
      .where(sql<boolean>`lower(name) IN ${jsonList(names)}`)
      .execute();
    for (const c of byName) if (digits(c.phone)) found.set(personKey(c.name, c.phone), c);
  }
  return found;
}

/**
 * What this run has settled so far is kept in a staging table (stage.ts), not in memory: the keys
 * of the customers it added, the new keys of the ones it updated, and `#id` of each one it
 * updated. A later row with one of them repeats an earlier row.
 */
async function seenRows(ctx: BatchContext, keys: string[]): Promise<Map<string, number>> {
  const { rows } = await sql<{ key: string; row: number }>`
    SELECT key, row FROM temp.import_seen WHERE key IN ${jsonList(keys)}`.execute(ctx.db);
  return new Map(rows.map((r) => [r.key, r.row]));
}

async function remember(ctx: BatchContext, settled: Map<string, number>) {
  if (!settled.size) return;
  await sql`INSERT OR IGNORE INTO temp.import_seen (key, row)
    SELECT json_extract(value, '$[0]'), json_extract(value, '$[1]') FROM json_each(${JSON.stringify([...settled])})`.execute(
    ctx.db,
  );
}

/** Every key a customer can be matched by: a row repeating any of them is the same customer. */
function keysOf(c: { name: string; email: string | null; phone: string | null }): string[] {
  return [...(c.email ? [emailKey(c.email)] : []), ...(digits(c.phone) ? [personKey(c.name, c.phone)] : [])];
}

function propertyRow(
  ctx: BatchContext,
  customerId: string,
  p: NonNullable<ImportedCustomer['property']>,
  isDefault: boolean,
): PropertiesTable {
  return {
    id: newId('prop', ctx.nowMs),
    account_id: ctx.accountId,
    customer_id: customerId,
    ...p,
    is_default: isDefault ? 1 : 0,
    status: 'active',
    archived_at: null,
    created_at: ctx.now,
    updated_at: ctx.now,
  };
}

/** What a batch stages, gathered so each staging table takes one statement per batch. */
interface BatchStage {
  rows: StagedRows;
  updates: StagedUpdate[];
}

/** Brings an existing customer up to the row: its fields, plus its tags, notes and place added. */
async function updateExisting(
  ctx: BatchContext,
  out: BatchStage,
  pending: PendingRow,
  existing: Existing,
): Promise<Outcome> {
  const c = pending.customer;
  const tags = await ctx.db
    .selectFrom('customer_tags')
    .select('tag')
    .where('customer_id', '=', existing.id)
    .execute();
  const had = new Set(tags.map((t) => t.tag));
  const newTags = c.tags.filter((t) => !had.has(t));
  if (had.size + newTags.length > MAX_TAGS) {
    return { kind: 'rejected', row: pending, reason: `would give the customer more than ${MAX_TAGS} tags` };
  }
  const places = await ctx.db
    .selectFrom('properties')
    .select(['street', 'is_default', 'status'])
    .where('customer_id', '=', existing.id)
    .execute();
  const samePlace = (street: string) =>
    places.some((p) => p.street.trim().toLowerCase() === street.trim().toLowerCase());
  const addPlace = c.property && !samePlace(c.property.street) ? c.property : null;
  const property = addPlace
    ? propertyRow(
        ctx,
        existing.id,
        addPlace,
        !places.some((p) => p.is_default === 1 && p.status === 'active'),
      )
    : null;
  const noteIds = c.notes.map(() => newId('note', ctx.nowMs));
  const email = c.email || existing.email;
  out.updates.push({
    customer_id: existing.id,
    name: c.name,
    email,
    email_lower: email?.toLowerCase() ?? null,
    phone: c.phone || existing.phone,
    address: c.address || existing.address,
    updated_at: ctx.now,
  });
  out.rows.customer_tags.push(...newTags.map((tag) => ({ customer_id: existing.id, tag })));
  out.rows.customer_notes.push(
    ...noteIds.map((id, i) => ({ id, customer_id: existing.id, text: c.notes[i]!, created_at: ctx.now })),
  );
  if (property) out.rows.properties.push(property);
  const before = {
    name: existing.name,
    email: existing.email,
    email_lower: existing.email_lower,
    phone: existing.phone,
    address: existing.address,
    tags: newTags,
    note_ids: noteIds,
    property_ids: property ? [property.id] : [],
  };
  out.rows.customer_import_rows.push({
    import_id: ctx.importId,
    customer_id: existing.id,
    source_row: pending.row,
    action: 'updated',
    stamp: ctx.now,
    before: JSON.stringify(before),
  });
  return { kind: 'updated', row: pending };
}

/**
 * Decides one batch of mapped rows and stages what each does (stage.ts): new customers, updates
 * of the ones they match, and the matches themselves, whose verdicts hold only while those
 * customers stay as they are.
 */
export async function writeBatch(ctx: BatchContext, batch: PendingRow[]): Promise<Outcome[]> {
  const matches = await findMatches(ctx, batch);
  const seen = await seenRows(ctx, [
    ...new Set([
      ...batch.flatMap((p) => keysOf(p.customer)),
      ...[...matches.values()].map((m) => `#${m.id}`),
    ]),
  ]);
  const settled = new Map<string, number>();
  const earlier = (key: string) => settled.get(key) ?? seen.get(key);
  const outcomes: Outcome[] = [];
  const out: BatchStage = { rows: emptyStage(), updates: [] };
  const fresh: Array<{ pending: PendingRow; id: string }> = [];
  const repeat = (pending: PendingRow, row: number): Outcome => ({
    kind: 'rejected',
    row: pending,
    reason: `repeats row ${row} (same e-mail, or same name and phone)`,
  });
  for (const pending of batch) {
    const key = keyOf(pending.customer);
    const seenRow = key ? earlier(key) : undefined;
    if (seenRow !== undefined) {
      outcomes.push(repeat(pending, seenRow));
      continue;
    }
    const existing = key ? matches.get(key) : undefined;
    if (!existing) {
      const id = newId('cus', ctx.nowMs);
      fresh.push({ pending, id });
      outcomes.push({ kind: 'added', row: pending, id });
      for (const k of keysOf(pending.customer)) if (!settled.has(k)) settled.set(k, pending.row);
      continue;
    }
    const updatedRow = earlier(`#${existing.id}`);
    if (updatedRow !== undefined) {
      outcomes.push(repeat(pending, updatedRow));
    } else if (ctx.onMatch === 'skip') {
      outcomes.push({ kind: 'skipped', row: pending });
    } else {
      const outcome = await updateExisting(ctx, out, pending, existing);
      outcomes.push(outcome);
      if (outcome.kind === 'updated') {
        settled.set(`#${existing.id}`, pending.row);
        const after = {
          name: pending.customer.name,
          email: pending.customer.email ?? existing.email,
          phone: pending.customer.phone ?? existing.phone,
        };
        // Its keys before and after: a later row naming it either way repeats this one.
        for (const k of [...keysOf(existing), ...keysOf(after)])
          if (!settled.has(k)) settled.set(k, pending.row);
      }
    }
  }
  await remember(ctx, settled);
  addFresh(ctx, out.rows, fresh);
  const matched = [...matches.values()].map((m) => ({ customer_id: m.id, updated_at: m.updated_at }));
  await stageRows(ctx.db, out.rows, out.updates, matched);
  return outcomes;
}

function addFresh(ctx: BatchContext, out: StagedRows, fresh: Array<{ pending: PendingRow; id: string }>) {
  const { now } = ctx;
  for (const { pending, id } of fresh) {
    const c = pending.customer;
    out.customers.push({
      id,
      account_id: ctx.accountId,
      name: c.name,
      email: c.email,
      email_lower: c.email?.toLowerCase() ?? null,
      phone: c.phone,
      address: c.address,
      created_at: now,
      updated_at: now,
      deleted_at: null,
    });
    out.customer_tags.push(...c.tags.map((tag) => ({ customer_id: id, tag })));
    out.customer_notes.push(
      ...c.notes.map((text) => ({ id: newId('note', ctx.nowMs), customer_id: id, text, created_at: now })),
    );
    if (c.property) out.properties.push(propertyRow(ctx, id, c.property, true));
    out.customer_import_rows.push({
      import_id: ctx.importId,
      customer_id: id,
      source_row: pending.row,
      action: 'created',
      stamp: now,
      before: null,
    });
  }
}
