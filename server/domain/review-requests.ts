import { CustomerReviewInput, type Review } from '../../shared/schemas/review';
import { dateInZone } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import type { JobsTable, ReviewsTable } from '../db/schema';
import type { ReviewRequestStatus } from '../db/schema-requests';
import { isoNow } from '../lib/clock';
import { conflict, invalidState, notFound, validationError } from '../lib/errors';
import { derivedId, idTime } from '../lib/ids';
import { getAccount } from './accounts';
import { type EventOrigin, recordEvent } from './events';
import { queueMail } from './mail';
import { notifyOwner } from './owner-alerts';
import { presentReviews } from './reviews';

const REVIEW_ID = /^rev_[0-9a-z]{26}$/;

/** The review request of a visit: one per job, the same id on every install that completes it. */
export function reviewRequestId(jobId: string, nowMs: number): string {
  return derivedId('rrq', idTime(jobId) ?? nowMs, `review:${jobId}`);
}

/**
 * After a visit is completed (inside its transaction), asks its customer once for a star rating
 * and a comment, when the owner turned it on (config.ask_for_reviews). The e-mail carries the
 * client hub's personal link; without an e-mail address, or where no client hub makes links, the
 * request is recorded as not sent and nothing goes out.
 */
export async function askForReview(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  job: JobsTable,
): Promise<void> {
  const { config } = await getAccount(tx, accountId);
  if (!config.ask_for_reviews) return;
  const id = reviewRequestId(job.id, ctx.clock.now().getTime());
  const asked = await tx.selectFrom('review_requests').select('id').where('id', '=', id).executeTakeFirst();
  if (asked) return;
  const customer = await tx
    .selectFrom('customers')
    .select(['id', 'name', 'email'])
    .where('id', '=', job.customer_id)
    .executeTakeFirst();
  const now = isoNow(ctx.clock);
  let status: ReviewRequestStatus = 'no_email';
  let messageId: string | null = null;
  // The request row goes in first: the link maker may record its link against it.
  await tx
    .insertInto('review_requests')
    .values({
      id,
      account_id: accountId,
      job_id: job.id,
      customer_id: customer?.id ?? null,
      status,
      message_id: null,
      review_id: null,
      created_at: now,
      answered_at: null,
      updated_at: now,
    })
    .execute();
  const link =
    customer?.email && ctx.clientLinks
      ? await ctx.clientLinks.reviewLink(tx, { accountId, customerId: customer.id, reviewRequestId: id })
      : null;
  if (customer?.email && !link) status = 'no_link';
  if (customer?.email && link) {
    const visitDay = dateInZone(new Date(job.completed_at ?? now), config.timezone);
    messageId = derivedId('msg', idTime(id) ?? ctx.clock.now().getTime(), `review_request:${id}`);
    await queueMail(tx, ctx, accountId, {
      id: messageId,
      kind: 'winback',
      purpose: 'review_request',
      customerId: customer.id,
      documentId: null,
      to: customer.email,
      subject: `How did we do? ${config.business_name}`,
      body: [
        `Hi ${customer.name},`,
        '',
        `Thank you for choosing ${config.business_name}. How was our visit on ${visitDay}?`,
        'Rate it and tell us in a minute, no account needed:',
        link,
        '',
        config.business_name,
      ].join('\n'),
    });
    status = 'sent';
  }
  if (status !== 'no_email') {
    await tx
      .updateTable('review_requests')
      .set({ status, message_id: messageId })
      .where('id', '=', id)
      .execute();
  }
}

export interface ReviewIds {
  /** The review's id, derived from the customer's action id. */
  id: string;
  /** The event's id and time, derived from the action: one event wherever it is applied. */
  origin?: EventOrigin;
}

/**
 * A customer's answer to their review request (the client hub): the review (review.received)
 * and the request marked answered. `ids.id` is the review's id, derived from the action: a second
 * call with it changes nothing and returns the same review. A visit is reviewed once.
 */
export async function recordCustomerReview(
  ctx: AppContext,
  accountId: string,
  input: CustomerReviewInput,
  ids: ReviewIds,
): Promise<Review> {
  return ctx.db.transaction().execute((tx) => recordReviewIn(tx, ctx, accountId, input, ids));
}

/** recordCustomerReview inside the caller's transaction (the client hub's applier keeps one per action). */
export async function recordReviewIn(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  input: CustomerReviewInput,
  ids: ReviewIds,
): Promise<Review> {
  if (!REVIEW_ID.test(ids.id)) throw validationError('id must be a review id (rev_ and 26 characters)', 'id');
  const answer = CustomerReviewInput.parse(input);
  const existing = await tx.selectFrom('reviews').selectAll().where('id', '=', ids.id).executeTakeFirst();
  if (existing) {
    if (existing.account_id !== accountId) throw conflict(`Review id ${ids.id} is taken`, 'id');
    return (await presentReviews(tx, [existing]))[0]!;
  }
  const request = await tx
    .selectFrom('review_requests')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', answer.review_request_id)
    .executeTakeFirst();
  if (!request) throw notFound(`No review request ${answer.review_request_id}`);
  if (request.review_id) throw invalidState('This visit has been reviewed already; thank you.');
  const now = ids.origin?.at ?? isoNow(ctx.clock);
  const row: ReviewsTable = {
    id: ids.id,
    account_id: accountId,
    customer_id: request.customer_id,
    job_id: request.job_id,
    rating: answer.rating,
    comment: answer.comment ?? null,
    source: 'client_hub',
    received_at: now,
    created_at: now,
    updated_at: now,
  };
  await tx.insertInto('reviews').values(row).execute();
  await tx
    .updateTable('review_requests')
    .set({ status: 'answered', review_id: row.id, answered_at: now, updated_at: now })
    .where('id', '=', request.id)
    .execute();
  const [review] = await presentReviews(tx, [row]);
  await recordEvent(tx, ctx.clock, accountId, 'review.received', review, ids.origin);
  const stars = '★'.repeat(row.rating) + '☆'.repeat(5 - row.rating);
  await notifyOwner(tx, ctx, accountId, {
    key: `review:${row.id}`,
    at: row.id,
    subject: `New review ${stars} from ${review!.customer?.name ?? 'a customer'}`,
    body: [
      `${review!.customer?.name ?? 'A customer'} rated job ${review!.job?.job_number ?? ''} ${row.rating} of 5.`,
      row.comment ? `"${row.comment}"` : null,
      '',
      'Open Shopdesk › Reviews to answer it.',
    ]
      .filter((line) => line !== null)
      .join('\n'),
  });
  return review!;
}
