import { ZodError } from 'zod';
import type { PageRequestInput, WorkRequestInput } from '../../shared/schemas/booking-request';
import type { CustomerReviewInput } from '../../shared/schemas/review';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { ClientActionsTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { requestBookingIn, requestFromPageIn } from './booking-requests';
import type { EventOrigin } from './events';
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

async function applyAction(ctx: AppContext, action: ClientActionsTable): Promise<void> {
  try {
    await ctx.db.transaction().execute(async (tx) => {
      if (!(await stillPending(tx, action.id))) return;
      const outcome = await dispatch(tx, ctx, action);
      await settle(tx, ctx, action.id, 'applied', outcome);
    });
  } catch (error) {
    const refusal = refusalOf(error);
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
function refusalOf(error: unknown): string | null {
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
  const payload = JSON.parse(action.payload) as Record<string, unknown>;
  const ids = { id: '', origin: actionOrigin(action) };
  switch (action.kind) {
    case 'link.renew':
      await addNote(tx, action, `Asked for a new client hub link (gave ${String(payload.contact)}).`);
      return 'Passed on.';
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
    throw new ApiError(404, 'not_found', 'This quote is no longer available.');
  }
  switch (action.kind) {
    case 'quote.approve':
      await answerQuote(tx, ctx, action.account_id, quote.id, 'accepted', actionOrigin(action));
      return `Approved by ${payload.name}.`;
    case 'quote.decline':
      await answerQuote(tx, ctx, action.account_id, quote.id, 'declined', actionOrigin(action));
      if (payload.reason) await addNote(tx, action, `Declined quote ${quote.number}: ${payload.reason}`);
      return 'Declined.';
    default:
      await addNote(tx, action, `Asked for changes to quote ${quote.number}: ${payload.message}`);
      return 'Your message was passed on.';
  }
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
