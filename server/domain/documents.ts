import { type RawBuilder, type SqlBool, sql } from 'kysely';
import {
  computeTotals,
  type DocumentTotals,
  fromCents,
  type LineInput,
  type TaxInput,
} from '../../shared/money';
import type { StoredConfig } from '../../shared/schemas/config';
import type { DocumentCustomer, DocumentUpdateFields, LineItem, Tax } from '../../shared/schemas/document';
import type { AppContext } from '../context';
import { insertCompiledOnce } from '../db/compiled-once';
import type { Queryable, Tx } from '../db/database';
import type { Database } from '../db/schema';
import { isoNow, todayIn } from '../lib/clock';
import { notFound, validationError } from '../lib/errors';
import { newId } from '../lib/ids';
import { getAccount } from './accounts';
import { nextNumber } from './counters';
import { findOrCreateCustomer } from './customers';
import type { Filterable } from './list-filters';
import { placeFor } from './properties';

/**
 * What quotes and invoices have in common: their lines and taxes (document_lines and
 * document_taxes, keyed by the quo_/inv_ id), their customer, how they are referenced and how
 * their money is shown. Totals always come from shared/money.ts computeTotals.
 */

export interface DocumentBody {
  items: LineItem[];
  taxes: Tax[];
}

const DOCUMENT_TABLES = {
  invoices: { idPrefix: 'inv', noun: 'invoice' },
  quotes: { idPrefix: 'quo', noun: 'quote' },
} as const;

/**
 * An account's invoice or quote row, named by id (inv_…, quo_…) or by number (INV-0001,
 * Q-0001) as paths and API arguments do; 404 when the account has none.
 */
export async function findDocumentRow<T extends keyof typeof DOCUMENT_TABLES>(
  db: Queryable,
  table: T,
  accountId: string,
  ref: string,
): Promise<Database[T]> {
  const { idPrefix, noun } = DOCUMENT_TABLES[table];
  const row = await db
    .selectFrom(table as keyof typeof DOCUMENT_TABLES)
    .selectAll()
    .where('account_id', '=', accountId)
    .where(ref.startsWith(`${idPrefix}_`) ? 'id' : 'number', '=', ref)
    .executeTakeFirst();
  if (!row) throw notFound(`No ${noun} ${ref}`);
  return row as Database[T];
}

/** Replaces the lines and taxes of a document with freshly computed ones. */
export async function saveDocumentBody(tx: Tx, documentId: string, totals: DocumentTotals): Promise<void> {
  await deleteDocumentBody(tx, documentId);
  await insertDocumentBody(tx, documentId, totals);
}

/** The columns a draft's shared update fields change; the document adds its term (due_date, valid_until). */
export interface DraftChanges {
  customer_id?: string;
  property_id?: string | null;
  subtotal_cents?: number;
  tax_total_cents?: number;
  total_cents?: number;
  notes?: string | null;
  issue_date?: string;
}

/**
 * Applies the shared fields of a draft update inside the caller's transaction: a new customer
 * (created if the e-mail is new) and new lines or taxes (saved, with totals recomputed from
 * the lines and taxes the patch leaves as they were).
 */
export async function applyDraftFields(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  current: { id: string; customer_id: string },
  patch: DocumentUpdateFields,
): Promise<DraftChanges> {
  const documentId = current.id;
  const changes: DraftChanges = {};
  if (patch.customer_email !== undefined || patch.customer_id !== undefined) {
    const customer = await findOrCreateCustomer(tx, ctx, accountId, {
      customer_id: patch.customer_id,
      email: patch.customer_email,
      name: patch.customer_name,
    });
    changes.customer_id = customer.id;
  }
  // A draft moved to another customer goes to their place (the default unless one is named).
  const customerId = changes.customer_id ?? current.customer_id;
  if (patch.property_id !== undefined || customerId !== current.customer_id) {
    changes.property_id = (await placeFor(tx, accountId, customerId, patch.property_id))?.id ?? null;
  }
  if (patch.items !== undefined || patch.taxes !== undefined) {
    const current = bodyInputs((await loadDocumentBodies(tx, [documentId])).get(documentId)!);
    const totals = computeTotals(patch.items ?? current.items, patch.taxes ?? current.taxes);
    await saveDocumentBody(tx, documentId, totals);
    changes.subtotal_cents = totals.subtotal_cents;
    changes.tax_total_cents = totals.tax_total_cents;
    changes.total_cents = totals.total_cents;
  }
  if (patch.notes !== undefined) changes.notes = patch.notes || null;
  if (patch.issue_date !== undefined) changes.issue_date = patch.issue_date;
  return changes;
}

/** The sign-off of the e-mails that carry a document. */
/**
 * A draft turns sent at `at`: when its e-mail went out, or when the owner handed it over. A
 * document that is no longer a draft keeps its status.
 */
export async function markDraftSent(db: Queryable, table: 'invoices' | 'quotes', id: string, at: string) {
  await db
    .updateTable(table)
    .set({ status: 'sent', sent_at: at, updated_at: at })
    .where('id', '=', id)
    .where('status', '=', 'draft')
    .execute();
}

export function mailSignature(config: StoredConfig): string {
  return [config.business_name, config.business_email, config.business_phone].filter(Boolean).join('\n');
}

/** Writes the lines and taxes of a document that has none yet. */
export async function insertDocumentBody(tx: Tx, documentId: string, totals: DocumentTotals): Promise<void> {
  if (totals.lines.length) {
    await insertCompiledOnce(
      tx,
      'document_lines',
      totals.lines.map((line, position) => ({
        document_id: documentId,
        position,
        description: line.description,
        // Inputs are validated to a few decimals, so String() gives the exact decimal text.
        quantity: String(line.quantity),
        unit_price: String(line.unit_price),
        amount_cents: line.amount_cents,
      })),
    );
  }
  if (totals.taxes.length) {
    await insertCompiledOnce(
      tx,
      'document_taxes',
      totals.taxes.map((tax, position) => ({
        document_id: documentId,
        position,
        name: tax.name,
        rate: String(tax.rate),
        amount_cents: tax.amount_cents,
      })),
    );
  }
}

/** The body a document has once `totals` are stored: what loadDocumentBodies would read back. */
export function bodyFromTotals(totals: DocumentTotals): DocumentBody {
  return {
    items: totals.lines.map((line) => ({
      description: line.description,
      quantity: line.quantity,
      unit_price: line.unit_price,
      amount: fromCents(line.amount_cents),
    })),
    taxes: totals.taxes.map((tax) => ({
      name: tax.name,
      rate: tax.rate,
      amount: fromCents(tax.amount_cents),
    })),
  };
}

/** The stored lines and taxes of one document as inputs, for a draft update that replaces only one of them. */
export function bodyInputs(body: DocumentBody): { items: LineInput[]; taxes: TaxInput[] } {
  return {
    items: body.items.map(({ description, quantity, unit_price }) => ({ description, quantity, unit_price })),
    taxes: body.taxes.map(({ name, rate }) => ({ name, rate })),
  };
}

export async function deleteDocumentBody(tx: Tx, documentId: string): Promise<void> {
  await tx.deleteFrom('document_lines').where('document_id', '=', documentId).execute();
  await tx.deleteFrom('document_taxes').where('document_id', '=', documentId).execute();
}

/** Lines and taxes of several documents in two queries, in their stored order. */
export async function loadDocumentBodies(
  db: Queryable,
  documentIds: string[],
): Promise<Map<string, DocumentBody>> {
  const bodies = new Map<string, DocumentBody>(documentIds.map((id) => [id, { items: [], taxes: [] }]));
  if (documentIds.length === 0) return bodies;
  const [lines, taxes] = await Promise.all([
    db
      .selectFrom('document_lines')
      .selectAll()
      .where('document_id', 'in', documentIds)
      .orderBy('document_id')
      .orderBy('position')
      .execute(),
    db
      .selectFrom('document_taxes')
      .selectAll()
      .where('document_id', 'in', documentIds)
      .orderBy('document_id')
      .orderBy('position')
      .execute(),
  ]);
  for (const line of lines) {
    bodies.get(line.document_id)?.items.push({
      description: line.description,
      quantity: Number(line.quantity),
      unit_price: Number(line.unit_price),
      amount: fromCents(line.amount_cents),
    });
  }
  for (const tax of taxes) {
    bodies.get(tax.document_id)?.taxes.push({
      name: tax.name,
      rate: Number(tax.rate),
      amount: fromCents(tax.amount_cents),
    });
  }
  return bodies;
}

export async function loadDocumentCustomers(
  db: Queryable,
  customerIds: string[],
): Promise<Map<string, DocumentCustomer>> {
  const unique = [...new Set(customerIds)];
  if (unique.length === 0) return new Map();
  const rows = await db
    .selectFrom('customers')
    .select(['id', 'name', 'email'])
    .where('id', 'in', unique)
    .execute();
  const found = new Map(rows.map((row) => [row.id, row]));
  // Sync can delete a customer on one device while another still bills them (listed as a
  // conflict); the document stays readable, with nobody to send it to.
  for (const id of unique) if (!found.has(id)) found.set(id, { id, name: DELETED_CUSTOMER, email: '' });
  return found;
}

const DELETED_CUSTOMER = 'Deleted customer';

/**
 * What a new quote or invoice starts from: the account's config, its customer (found or created),
 * its place, its totals (the account's default taxes unless it names its own), its issue date, and
 * the columns of its row that every new document has alike: a draft, numbered in its own series.
 * `id` is one the caller derived (a service plan's invoice, the same on every install).
 */
export async function newDocumentBasics(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  series: 'invoice' | 'quote',
  input: {
    customer_id?: string | undefined;
    customer_email?: string | undefined;
    customer_name?: string | undefined;
    property_id?: string | null | undefined;
    items: LineInput[];
    taxes?: TaxInput[] | undefined;
    issue_date?: string | undefined;
    notes?: string | undefined;
  },
  id?: string,
) {
  const { config } = await getAccount(tx, accountId);
  const customer = await findOrCreateCustomer(tx, ctx, accountId, {
    customer_id: input.customer_id,
    email: input.customer_email,
    name: input.customer_name,
  });
  const place = await placeFor(tx, accountId, customer.id, input.property_id);
  const totals = computeTotals(input.items, input.taxes ?? config.default_taxes);
  const issueDate = input.issue_date ?? todayIn(ctx.clock, config.timezone);
  const now = isoNow(ctx.clock);
  const columns = {
    id: id ?? newId(series === 'invoice' ? 'inv' : 'quo', ctx.clock.now().getTime()),
    account_id: accountId,
    number: await nextNumber(
      tx,
      ctx,
      accountId,
      series,
      series === 'invoice' ? config.invoice_prefix : config.quote_prefix,
    ),
    customer_id: customer.id,
    property_id: place?.id ?? null,
    status: 'draft' as const,
    currency: config.currency,
    issue_date: issueDate,
    subtotal_cents: totals.subtotal_cents,
    tax_total_cents: totals.tax_total_cents,
    total_cents: totals.total_cents,
    notes: input.notes || null,
    sent_at: null,
    created_at: now,
    updated_at: now,
  };
  return { config, customer, totals, issueDate, columns };
}

/** todayIn an account's own time zone, for reads that compute overdue or expired. */
export async function accountToday(db: Queryable, ctx: AppContext, accountId: string): Promise<string> {
  const { config } = await getAccount(db, accountId);
  return todayIn(ctx.clock, config.timezone);
}

/** The end of a document's term (due date, validity) may not come before its issue date. */
export function requireDateOrder(
  dates: { issue: string; end: string },
  endName: 'due_date' | 'valid_until',
  param: 'issue_date' | 'due_date' | 'valid_until',
): void {
  if (dates.end < dates.issue) {
    throw validationError(`${endName} ${dates.end} is before issue_date ${dates.issue}`, param);
  }
}

/** Money as the business's customers read it: 1 234,56 $ in fr-CA, $1,234.56 in en-CA. */
export function formatMoney(cents: number, currency: string, locale: string): string {
  return new Intl.NumberFormat(locale, { style: 'currency', currency }).format(fromCents(cents));
}

/** A LIKE pattern matching `text` anywhere, with LIKE's own wildcards taken literally (use ESCAPE '\'). */
function containsPattern(text: string): string {
  return `%${text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

/**
 * Narrows a document list to those whose number, customer name or customer e-mail contains
 * `text`, case-insensitively. The query names the document table `alias` and joins customers as c.
 */
export function whereDocumentSearch<Q extends Filterable<Q>>(query: Q, alias: 'i' | 'q', text: string): Q {
  const pattern = containsPattern(text);
  const contains = (column: RawBuilder<unknown>) => sql<SqlBool>`${column} like ${pattern} escape '\\'`;
  const number = sql`lower(${sql.ref(`${alias}.number`)})`;
  return query.where(
    sql<SqlBool>`(${contains(number)} or ${contains(sql`lower(c.name)`)} or ${contains(sql.ref('c.email_lower'))})`,
  );
}
