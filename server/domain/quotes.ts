import { type SqlBool, sql } from 'kysely';
import { fromCents, toCents } from '../../shared/money';
import type { StoredConfig } from '../../shared/schemas/config';
import type { DeletedDocument } from '../../shared/schemas/document';
import type {
  Quote,
  QuoteCreate,
  QuoteListQuery,
  QuoteStatus,
  QuoteUpdate,
} from '../../shared/schemas/quote';
import { addDays, dateInZone } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { QuotesTable } from '../db/schema';
import { isoNow, todayIn } from '../lib/clock';
import { invalidState } from '../lib/errors';
import { getAccount } from './accounts';
import { queueDocumentMail, refuseWhileMailWaits } from './document-sending';
import {
  accountToday,
  applyDraftFields,
  deleteDocumentBody,
  findDocumentRow,
  formatMoney,
  loadDocumentBodies,
  loadDocumentCustomers,
  mailSignature,
  markDraftSent,
  newDocumentBasics,
  requireDateOrder,
  saveDocumentBody,
  whereDocumentSearch,
} from './documents';
import { type EventOrigin, recordEvent } from './events';
import { insertJob } from './jobs';
import { type OwnerFilters, type TimeFilters, whereOwnerFilters, whereTimeFilters } from './list-filters';
import { cancelWaitingMail } from './mail';
import { keysetPage, type Page } from './pagination';

export type QuoteQuery = QuoteListQuery & OwnerFilters & TimeFilters;

/** Job titles are shorter than line descriptions. */
const JOB_TITLE_MAX = 200;

/**
 * Expired is computed on read: a sent quote whose valid_until has passed in the business's time
 * zone (the last valid day still counts). A draft never went out, and an answered quote keeps
 * its answer, so neither expires.
 */
function isExpired(row: QuotesTable, today: string): boolean {
  return row.status === 'sent' && row.valid_until < today;
}

function shownStatus(row: QuotesTable, today: string): QuoteStatus {
  return isExpired(row, today) ? 'expired' : row.status;
}

function expiredSql(today: string) {
  return sql<SqlBool>`(q.status = 'sent' and q.valid_until < ${today})`;
}

async function presentQuotes(db: Queryable, rows: QuotesTable[], today: string): Promise<Quote[]> {
  if (rows.length === 0) return [];
  const [bodies, customers] = await Promise.all([
    loadDocumentBodies(
      db,
      rows.map((r) => r.id),
    ),
    loadDocumentCustomers(
      db,
      rows.map((r) => r.customer_id),
    ),
  ]);
  return rows.map((row) => {
    const body = bodies.get(row.id)!;
    return {
      id: row.id,
      object: 'quote' as const,
      number: row.number,
      status: shownStatus(row, today),
      customer: customers.get(row.customer_id)!,
      items: body.items,
      taxes: body.taxes,
      subtotal: fromCents(row.subtotal_cents),
      tax_total: fromCents(row.tax_total_cents),
      total: fromCents(row.total_cents),
      currency: row.currency,
      issue_date: row.issue_date,
      valid_until: row.valid_until,
      notes: row.notes,
      property_id: row.property_id ?? null,
      job_id: row.job_id,
      sent_at: row.sent_at,
      accepted_at: row.accepted_at,
      declined_at: row.declined_at,
      converted_at: row.converted_at,
      created_at: row.created_at,
      updated_at: row.updated_at,
    };
  });
}

function findRow(db: Queryable, accountId: string, ref: string): Promise<QuotesTable> {
  return findDocumentRow(db, 'quotes', accountId, ref);
}

async function presentOne(db: Queryable, ctx: AppContext, row: QuotesTable): Promise<Quote> {
  const [quote] = await presentQuotes(db, [row], await accountToday(db, ctx, row.account_id));
  return quote!;
}

async function reload(tx: Tx, ctx: AppContext, row: QuotesTable): Promise<Quote> {
  return presentOne(tx, ctx, await findRow(tx, row.account_id, row.id));
}

export async function getQuote(
  ctx: AppContext,
  accountId: string,
  ref: string,
  db: Queryable = ctx.db,
): Promise<Quote> {
  return presentOne(db, ctx, await findRow(db, accountId, ref));
}

export async function listQuotes(
  ctx: AppContext,
  accountId: string,
  query: QuoteQuery,
): Promise<Page<Quote>> {
  const today = await accountToday(ctx.db, ctx, accountId);
  return keysetPage(
    query,
    'quo',
    (beforeId, limit) => {
      let q = ctx.db
        .selectFrom('quotes as q')
        .innerJoin('customers as c', 'c.id', 'q.customer_id')
        .selectAll('q')
        .where('q.account_id', '=', accountId);
      if (beforeId) q = q.where('q.id', '<', beforeId);
      switch (query.status) {
        case undefined:
          break;
        case 'expired':
          q = q.where(expiredSql(today));
          break;
        case 'sent':
          q = q.where('q.status', '=', 'sent').where(sql<SqlBool>`not ${expiredSql(today)}`);
          break;
        default:
          q = q.where('q.status', '=', query.status);
      }
      q = whereOwnerFilters(q, 'q', query);
      if (query.q) q = whereDocumentSearch(q, 'q', query.q);
      q = whereTimeFilters(q, 'q', query);
      return q.orderBy('q.id', 'desc').limit(limit).execute();
    },
    (rows) => presentQuotes(ctx.db, rows, today),
  );
}

/** Taxes default to the config's default_taxes only when the field is absent, as for invoices. */
export async function createQuote(ctx: AppContext, accountId: string, input: QuoteCreate): Promise<Quote> {
  return ctx.db.transaction().execute((tx) => insertQuote(tx, ctx, accountId, input));
}

/** Creates a draft quote inside the caller's transaction (a booking request turned into a quote). */
export async function insertQuote(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: QuoteCreate,
): Promise<Quote> {
  const { config, totals, issueDate, columns } = await newDocumentBasics(tx, ctx, accountId, 'quote', input);
  const row: QuotesTable = {
    ...columns,
    valid_until: addDays(issueDate, input.valid_days ?? config.default_valid_days),
    accepted_at: null,
    declined_at: null,
    converted_at: null,
    job_id: null,
  };
  await tx.insertInto('quotes').values(row).execute();
  await saveDocumentBody(tx, row.id, totals);
  return presentOne(tx, ctx, row);
}

/** Only a draft changes: a sent quote is what the customer is answering, so it is replaced by a new one. */
export async function updateQuote(
  ctx: AppContext,
  accountId: string,
  ref: string,
  patch: QuoteUpdate,
): Promise<Quote> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'draft') {
      throw invalidState(
        `Quote ${row.number} is ${row.status}; only a draft can be changed. Create a new quote instead.`,
      );
    }
    const changes: Partial<QuotesTable> = {
      updated_at: isoNow(ctx.clock),
      ...(await applyDraftFields(tx, ctx, accountId, row, patch)),
    };
    if (patch.valid_until !== undefined) changes.valid_until = patch.valid_until;
    requireDateOrder(
      { issue: changes.issue_date ?? row.issue_date, end: changes.valid_until ?? row.valid_until },
      'valid_until',
      patch.valid_until !== undefined ? 'valid_until' : 'issue_date',
    );
    await tx.updateTable('quotes').set(changes).where('id', '=', row.id).execute();
    return reload(tx, ctx, row);
  });
}

/**
 * The e-mail of a quote as it stands. With a client hub link the customer answers there
 * (docs/client-hub.md); without one (no client hub address set), by replying.
 */
export function quoteMail(quote: Quote, config: StoredConfig, hubLink?: string | null) {
  const totalCents = toCents(quote.total);
  return {
    subject: `Quote ${quote.number} from ${config.business_name}`,
    body: [
      `Hi ${quote.customer.name},`,
      `Please find attached quote ${quote.number} for ${formatMoney(totalCents, quote.currency, config.locale)}, valid until ${quote.valid_until}.`,
      quote.notes,
      hubLink
        ? `See it, approve it or ask for changes here: ${hubLink}\n\nReply to this e-mail to ask us anything.\n${mailSignature(config)}`
        : `Reply to this e-mail to accept it or ask us anything.\n${mailSignature(config)}`,
    ]
      .filter(Boolean)
      .join('\n\n'),
  };
}

/**
 * Puts the quote's e-mail in the outbox; the quote turns sent only when it has gone out (the mail
 * worker records it). An expired quote is not sent: its price no longer holds, so the owner makes
 * a new quote.
 */
export async function sendQuote(ctx: AppContext, accountId: string, ref: string): Promise<Quote> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    const { config } = await getAccount(tx, accountId);
    const today = todayIn(ctx.clock, config.timezone);
    if (row.status !== 'draft' && row.status !== 'sent') {
      throw invalidState(`Quote ${row.number} is ${row.status} and cannot be sent again.`);
    }
    if (row.valid_until < today) {
      throw invalidState(
        `Quote ${row.number} was valid until ${row.valid_until}; ${
          row.status === 'draft' ? 'change valid_until before sending it' : 'create a new quote instead'
        }.`,
      );
    }
    await refuseWhileMailWaits(tx, row, 'Quote');
    const quote = await reload(tx, ctx, row);
    await queueDocumentMail(tx, ctx, accountId, {
      kind: 'quote',
      row,
      customer: quote.customer,
      config,
      compose: (hubLink) => quoteMail(quote, config, hubLink),
    });
    return quote;
  });
}

/** Records that the customer has the quote without e-mail from Shopdesk (handed over, posted). */
export async function markQuoteSent(ctx: AppContext, accountId: string, ref: string): Promise<Quote> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'draft') throw invalidState(`Quote ${row.number} is ${row.status}, not a draft.`);
    await markDraftSent(tx, 'quotes', row.id, isoNow(ctx.clock));
    return reload(tx, ctx, row);
  });
}

/**
 * The customer's answer, on a quote still open: sent, or a draft the owner has not sent because the
 * customer answered on the phone or on site (as a draft invoice may take a payment). A draft's
 * e-mail still waiting is held back: the quote is no longer on offer. `origin` fixes the answer's
 * time and its event's id, for an answer applied from the client hub (client-actions.ts).
 */
export async function answerQuote(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  ref: string,
  decision: 'accepted' | 'declined',
  origin?: EventOrigin,
): Promise<Quote> {
  const row = await findRow(tx, accountId, ref);
  const { config } = await getAccount(tx, accountId);
  const verb = decision === 'accepted' ? 'accepted' : 'declined';
  if (row.status !== 'sent' && row.status !== 'draft') {
    throw invalidState(`Quote ${row.number} is already ${row.status} and cannot be ${verb}.`);
  }
  const now = origin?.at ?? isoNow(ctx.clock);
  // Declining an expired quote is still recorded (the customer's no is worth knowing);
  // accepting one is refused because its price and terms no longer hold.
  if (decision === 'accepted' && row.valid_until < dateInZone(new Date(now), config.timezone)) {
    const fix = row.status === 'draft' ? 'change its valid-until date first' : 'create a new quote';
    throw invalidState(`Quote ${row.number} expired on ${row.valid_until} and cannot be accepted; ${fix}.`);
  }
  await tx
    .updateTable('quotes')
    .set({
      status: decision,
      ...(decision === 'accepted' ? { accepted_at: now } : { declined_at: now }),
      updated_at: now,
    })
    .where('id', '=', row.id)
    .execute();
  await cancelWaitingMail(tx, row.id, `Quote ${row.number} was ${verb} before this e-mail went out.`, now);
  const quote = await reload(tx, ctx, row);
  await recordEvent(
    tx,
    ctx.clock,
    accountId,
    decision === 'accepted' ? 'quote.accepted' : 'quote.declined',
    quote,
    origin,
  );
  return quote;
}

function answer(ctx: AppContext, accountId: string, ref: string, decision: 'accepted' | 'declined') {
  return ctx.db.transaction().execute((tx) => answerQuote(tx, ctx, accountId, ref, decision));
}

export const acceptQuote = (ctx: AppContext, accountId: string, ref: string) =>
  answer(ctx, accountId, ref, 'accepted');

export const declineQuote = (ctx: AppContext, accountId: string, ref: string) =>
  answer(ctx, accountId, ref, 'declined');

/**
 * Turns an accepted quote into work: a job for the same customer, priced at the quote's total,
 * titled after its first line, at the quote's place (the customer's address when it names none).
 * The job starts unscheduled.
 */
export async function convertQuote(ctx: AppContext, accountId: string, ref: string): Promise<Quote> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'accepted') {
      const why =
        row.status === 'converted'
          ? 'it was already converted'
          : `it is ${row.status}; only an accepted quote becomes a job`;
      throw invalidState(`Quote ${row.number} cannot be converted: ${why}.`);
    }
    const quote = await presentOne(tx, ctx, row);
    const customer = await tx
      .selectFrom('customers')
      .select(['address'])
      .where('id', '=', row.customer_id)
      .executeTakeFirstOrThrow();
    const firstLine = quote.items[0]?.description;
    const job = await insertJob(
      tx,
      ctx,
      accountId,
      {
        customer_id: quote.customer.id,
        title: firstLine ? firstLine.slice(0, JOB_TITLE_MAX) : `Quote ${row.number}`,
        property_id: row.property_id ?? null,
        address: customer.address,
        price: quote.total,
        notes: row.notes,
      },
      { quoteId: row.id },
    );
    const now = isoNow(ctx.clock);
    await tx
      .updateTable('quotes')
      .set({ status: 'converted', converted_at: now, job_id: job.id, updated_at: now })
      .where('id', '=', row.id)
      .execute();
    return reload(tx, ctx, row);
  });
}

/** Deletes a draft; a quote the customer received stays on record. */
export async function deleteQuote(ctx: AppContext, accountId: string, ref: string): Promise<DeletedDocument> {
  return ctx.db.transaction().execute(async (tx) => {
    const row = await findRow(tx, accountId, ref);
    if (row.status !== 'draft') {
      throw invalidState(`Quote ${row.number} is ${row.status}; only a draft can be deleted.`);
    }
    await cancelWaitingMail(tx, row.id, `Quote ${row.number} was deleted.`, isoNow(ctx.clock));
    await deleteDocumentBody(tx, row.id);
    await tx.deleteFrom('quotes').where('id', '=', row.id).execute();
    return { id: row.id, object: 'quote', deleted: true };
  });
}
