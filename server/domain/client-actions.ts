import { ZodError } from 'zod';
import type { PageRequestInput, WorkRequestInput } from '../../shared/schemas/booking-request';
import type { CustomerReviewInput } from '../../shared/schemas/review';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import type { ClientActionsTable } from '../db/schema';
import { clientLinkActor, runAs } from '../lib/actor';
import { isoNow } from '../lib/clock';
import { ApiError, invalidState, notFound } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { requestBookingIn, requestFromPageIn } from './booking-requests';
import type { EventOrigin } from './events';
import { notifyOwner } from './owner-alerts';
import { answerQuote } from './quotes';
import { recordReviewIn } from './review-requests';

/**
 * Applies what customers did on the client hub (docs/client-hub.md, "Applying an action"): one
 * transaction per action, through the ordinary domain functions, marking it applied or refused.
 * Every effect's id and time derive from the action, so installs applying the same action while
 * apart write the same rows and sync merges them into one (docs/sync.md, invariant 12b).
 */
export async function applyPendingActions(ctx: AppContext, accountId: string): Promise<number> {
  const pending = await ctx.db
    .selectFrom('client_actions')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('status', '=', 'pending')
    .orderBy('id')
    .execute();
  for (const action of pending) await applyAction(ctx, action);
  return pending.length;
}

/** The customer's action is theirs, through the link that made it, wherever it is applied. */
function applyAction(ctx: AppContext, action: ClientActionsTable): Promise<void> {
  return runAs(clientLinkActor(action.link_id), () => applyOne(ctx, action));
}

async function applyOne(ctx: AppContext, action: ClientActionsTable): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (!(await stillPending(tx, action.id))) return;
      const outcome = await dispatch(tx, ctx, action);
      await settle(tx, ctx, action.id, 'applied', outcome);
    });
  } catch (error) {
    const refusal = actionRefusal(error);
    if (refusal === null) throw error;
    await ctx.db.transaction().execute(async (tx) => {
      if (await stillPending(tx, action.id)) await settle(tx, ctx, action.id, 'refused', refusal);
    });
  }
}

/**
 * A refusal (the quote is no longer open, the visit was reviewed, the hours changed) is the
 * action's answer; anything else is a fault. A payload the domain's schema refuses is a refusal
 * too: the page checked it with the schema of the version that served it.
 */
export function actionRefusal(error: unknown): string | null {
  if (error instanceof ApiError) return error.status < 500 ? error.message : null;
  if (error instanceof ZodError) return error.issues[0]?.message ?? 'The form was not valid.';
  return null;
}

async function stillPending(tx: Tx, id: string): Promise<boolean> {
  const row = await tx.selectFrom('client_actions').select('status').where('id', '=', id).executeTakeFirst();
  return row?.status === 'pending';
}

async function settle(
  tx: Tx,
  ctx: AppContext,
  id: string,
  status: 'applied' | 'refused',
  outcome: string,
): Promise<void> {
  await tx
    .updateTable('client_actions')
    .set({ status, outcome, applied_at: isoNow(ctx.clock) })
    .where('id', '=', id)
    .execute();
}

/** The time of the action, in ms, for ids derived from it. */
function actionTime(action: ClientActionsTable): number {
  return idTime(action.id) ?? Date.parse(action.created_at);
}

export function actionOrigin(action: Pick<ClientActionsTable, 'id' | 'created_at'>): EventOrigin {
  return {
    id: derivedId('evt', idTime(action.id) ?? Date.parse(action.created_at), action.id),
    at: action.created_at,
  };
}

async function dispatch(tx: Tx, ctx: AppContext, action: ClientActionsTable): Promise<string> {
  // The owner may delete the customer on one install while the hub takes their action: it is
  // refused like a missing record (never a fault, which would fail every sync round after).
  if (action.customer_id && !(await customerHere(tx, action))) {
    throw notFound('This customer is no longer on record.');
  }
  const payload = JSON.parse(action.payload) as Record<string, unknown>;
  const ids = { id: '', origin: actionOrigin(action) };
  switch (action.kind) {
    case 'link.renew':
      await addNote(tx, action, `Asked for a new client hub link (gave ${String(payload.contact)}).`);
      return 'Passed on.';
    case 'invoice.payment_notice':
      return paymentNotice(tx, ctx, action, payload as Record<string, string>);
    case 'visit.reschedule':
      return rescheduleRequest(tx, ctx, action, payload as Record<string, string>);
    case 'review.submit':
      await recordReviewIn(
        tx,
        ctx,
        action.account_id,
        { ...payload, review_request_id: action.subject_id } as CustomerReviewInput,
        { ...ids, id: derivedId('rev', actionTime(action), action.id) },
      );
      return 'Thank you for your review.';
    case 'booking.request':
      await requestBookingIn(
        tx,
        ctx,
        action.account_id,
        { ...payload, customer_id: action.customer_id } as WorkRequestInput,
        { ...ids, id: action.subject_id },
      );
      return 'Your request was passed on.';
    case 'booking.page':
      await requestFromPageIn(tx, ctx, action.account_id, payload as PageRequestInput, {
        ...ids,
        id: action.subject_id,
      });
      return 'Your request was passed on.';
    default:
      return answerQuoteAction(tx, ctx, action, payload as Record<string, string>);
  }
}

/** A customer's approval of a quote on the client hub, as the record printed on the accepted quote. */
export interface QuoteApproval {
  name: string;
  at: string;
  ip: string | null;
}

/** The approval that accepted the quote, if the customer accepted it on the client hub. */
export async function quoteApproval(
  db: Queryable,
  accountId: string,
  quoteId: string,
): Promise<QuoteApproval | null> {
  const row = await db
    .selectFrom('client_actions')
    .select(['payload', 'created_at', 'ip'])
    .where('account_id', '=', accountId)
    .where('subject_id', '=', quoteId)
    .where('kind', '=', 'quote.approve')
    .where('status', '=', 'applied')
    .orderBy('id')
    .executeTakeFirst();
  if (!row) return null;
  const { name } = JSON.parse(row.payload) as { name?: unknown };
  return typeof name === 'string' ? { name, at: row.created_at, ip: row.ip } : null;
}

async function answerQuoteAction(
  tx: Tx,
  ctx: AppContext,
  action: ClientActionsTable,
  payload: Record<string, string>,
): Promise<string> {
  const quote = await tx
    .selectFrom('quotes')
    .select(['id', 'number', 'customer_id'])
    .where('id', '=', action.subject_id)
    .where('account_id', '=', action.account_id)
    .executeTakeFirst();
  // A link shows one customer's quotes: an action naming another's is refused like a missing one.
  if (!quote || quote.customer_id !== action.customer_id) {
    throw notFound('This quote is no longer available.');
  }
  const who = await customerName(tx, action);
  switch (action.kind) {
    case 'quote.approve':
      await answerQuote(tx, ctx, action.account_id, quote.id, 'accepted', actionOrigin(action));
      await alertOwner(
        tx,
        ctx,
        action,
        `${who} approved quote ${quote.number}`,
        `Approved as "${payload.name}".`,
      );
      return `Approved by ${payload.name}.`;
    case 'quote.decline':
      await answerQuote(tx, ctx, action.account_id, quote.id, 'declined', actionOrigin(action));
      if (payload.reason) await addNote(tx, action, `Declined quote ${quote.number}: ${payload.reason}`);
      await alertOwner(
        tx,
        ctx,
        action,
        `${who} declined quote ${quote.number}`,
        payload.reason || 'No reason given.',
      );
      return 'Declined.';
    default:
      await addNote(tx, action, `Asked for changes to quote ${quote.number}: ${payload.message}`);
      await alertOwner(
        tx,
        ctx,
        action,
        `${who} asked for changes to quote ${quote.number}`,
        String(payload.message),
      );
      return 'Your message was passed on.';
  }
}

async function paymentNotice(
  tx: Tx,
  ctx: AppContext,
  action: ClientActionsTable,
  payload: Record<string, string>,
): Promise<string> {
  const invoice = await tx
    .selectFrom('invoices')
    .select(['number', 'customer_id', 'status', 'total_cents', 'amount_paid_cents'])
    .where('id', '=', action.subject_id)
    .where('account_id', '=', action.account_id)
    .executeTakeFirst();
  if (!invoice || invoice.customer_id !== action.customer_id || invoice.status === 'draft') {
    throw new ApiError(404, 'not_found', 'This invoice is no longer available.');
  }
  if (invoice.status === 'void') throw invalidState('This invoice was cancelled: there is nothing to pay.');
  if (invoice.total_cents - invoice.amount_paid_cents <= 0)
    throw invalidState('This invoice is already paid in full.');
  const note = payload.note ? ` (${payload.note})` : '';
  await addNote(tx, action, `Says they sent the payment for invoice ${invoice.number}${note}.`);
  const who = await customerName(tx, action);
  await alertOwner(
    tx,
    ctx,
    action,
    `${who} says they paid invoice ${invoice.number}`,
    `${payload.note || 'No details given.'}\n\nRecord the payment on the invoice once it has arrived.`,
  );
  return 'Passed on: they will record your payment once it arrives.';
}

async function rescheduleRequest(
  tx: Tx,
  ctx: AppContext,
  action: ClientActionsTable,
  payload: Record<string, string>,
): Promise<string> {
  const job = await tx
    .selectFrom('jobs')
    .select(['number', 'title', 'customer_id', 'status', 'scheduled_start'])
    .where('id', '=', action.subject_id)
    .where('account_id', '=', action.account_id)
    .executeTakeFirst();
  if (!job || job.customer_id !== action.customer_id) {
    throw new ApiError(404, 'not_found', 'This visit is no longer on the schedule.');
  }
  if (job.status === 'cancelled') throw invalidState('This visit was cancelled.');
  if (job.status === 'completed' || job.status === 'in_progress') {
    throw invalidState('This visit has already started, so it can no longer be moved.');
  }
  const preferred = payload.preferred ? ` Would prefer: ${payload.preferred}.` : '';
  await addNote(
    tx,
    action,
    `Asked to reschedule ${job.number} (${job.title}): ${payload.message}${preferred}`,
  );
  const who = await customerName(tx, action);
  await alertOwner(
    tx,
    ctx,
    action,
    `${who} asked to reschedule ${job.number}`,
    `${payload.message}\n${preferred.trim()}\n\nMove the visit, or answer with another time from the dashboard.`,
  );
  return 'Your request was passed on.';
}

async function customerHere(tx: Tx, action: ClientActionsTable): Promise<boolean> {
  const row = await tx
    .selectFrom('customers')
    .select('id')
    .where('id', '=', action.customer_id)
    .where('account_id', '=', action.account_id)
    .executeTakeFirst();
  return row !== undefined;
}

async function customerName(tx: Tx, action: ClientActionsTable): Promise<string> {
  const row = await tx
    .selectFrom('customers')
    .select('name')
    .where('id', '=', action.customer_id)
    .executeTakeFirst();
  return row?.name ?? 'A customer';
}

/** The owner's e-mail for the action (when owner alerts are on): one per action, on any install. */
async function alertOwner(
  tx: Tx,
  ctx: AppContext,
  action: ClientActionsTable,
  subject: string,
  body: string,
) {
  await notifyOwner(tx, ctx, action.account_id, {
    key: `client_action:${action.id}`,
    at: action.id,
    subject,
    body: `${body}\n\n(From your client hub.)`,
  });
}

/** A note on the customer, with the id every install applying the action gives it. */
async function addNote(tx: Tx, action: ClientActionsTable, text: string): Promise<void> {
  await tx
    .insertInto('customer_notes')
    .values({
      id: derivedId('note', actionTime(action), action.id),
      customer_id: action.customer_id,
      text: `From the client hub: ${text}`,
      created_at: action.created_at,
    })
    .onConflict((oc) => oc.column('id').doNothing())
    .execute();
}
