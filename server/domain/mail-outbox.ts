import type { StoredConfig } from '../../shared/schemas/config';
import type { MessageListQuery, OutboxMessage } from '../../shared/schemas/mail-outbox';
import type { AppContext } from '../context';
import type { Queryable } from '../db/database';
import type { MailMessagesTable } from '../db/schema';
import type { MailPurpose } from '../db/schema-requests';
import { isoNow } from '../lib/clock';
import { invalidState, notFound } from '../lib/errors';
import { getAccount } from './accounts';
import { mailStatus, presentMail } from './mail';
import { keysetPage, type Page } from './pagination';

/** The sender address, or null when the account cannot send: SMTP needs a host and a From address. */
export function senderAddress(config: StoredConfig): string | null {
  if (!config.smtp) return null;
  return config.smtp.from ?? config.business_email ?? null;
}

type WaitingReason = OutboxMessage['waiting_reason'];

const PURPOSES: readonly string[] = [
  'review_request',
  'owner_alert',
  'booking_reply',
  'client_hub_reply',
  'on_my_way',
] satisfies MailPurpose[];
const isPurpose = (kind: string): kind is MailPurpose => PURPOSES.includes(kind);

async function waitingReasonFor(ctx: AppContext, accountId: string): Promise<WaitingReason> {
  if (!ctx.connectivity.online) return 'offline';
  const { config } = await getAccount(ctx.db, accountId);
  return senderAddress(config) ? null : 'smtp_not_configured';
}

function present(row: MailMessagesTable, reason: WaitingReason): OutboxMessage {
  return {
    ...presentMail(row),
    document_id: row.document_id,
    next_attempt_at: row.status === 'sent' || row.status === 'failed' ? null : row.next_attempt_at,
    waiting_reason: row.status === 'queued' ? reason : null,
  };
}

async function findMessage(db: Queryable, accountId: string, id: string): Promise<MailMessagesTable> {
  const found = await db
    .selectFrom('mail_messages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('id', '=', id)
    .executeTakeFirst();
  if (!found) throw notFound(`No message ${id}`);
  return found;
}

/** One message of the outbox, with why it waits. */
export async function getMessage(ctx: AppContext, accountId: string, id: string): Promise<OutboxMessage> {
  return present(await findMessage(ctx.db, accountId, id), await waitingReasonFor(ctx, accountId));
}

/** The mail outbox, newest first, optionally one status only. */
export async function listMessages(
  ctx: AppContext,
  accountId: string,
  query: MessageListQuery,
): Promise<Page<OutboxMessage>> {
  const reason = await waitingReasonFor(ctx, accountId);
  return keysetPage(
    query,
    'msg',
    (beforeId, limit) => {
      let q = ctx.db.selectFrom('mail_messages').selectAll().where('account_id', '=', accountId);
      if (beforeId) q = q.where('id', '<', beforeId);
      if (query.document_id) q = q.where('document_id', '=', query.document_id);
      if (query.kind === 'reminder') q = q.where('reminder', 'is not', null);
      else if (query.kind && isPurpose(query.kind)) q = q.where('purpose', '=', query.kind);
      else if (query.kind) {
        q = q.where('kind', '=', query.kind).where('reminder', 'is', null).where('purpose', 'is', null);
      }
      if (query.status === 'cancelled') q = q.where('cancelled_at', 'is not', null);
      else if (query.status) q = q.where('status', '=', query.status).where('cancelled_at', 'is', null);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => rows.map((row) => present(row, reason)),
  );
}

/** Puts a message back in the queue, due now, with a fresh set of attempts. */
async function requeue(
  ctx: AppContext,
  accountId: string,
  id: string,
  allowed: ReadonlyArray<MailMessagesTable['status']>,
  refusal: string,
): Promise<OutboxMessage> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    const found = await findMessage(tx, accountId, id);
    if (found.cancelled_at || !allowed.includes(found.status)) {
      throw invalidState(`Message ${id} is ${mailStatus(found)}; ${refusal}`);
    }
    const due = { status: 'queued' as const, attempts: 0, next_attempt_at: isoNow(ctx.clock) };
    await tx.updateTable('mail_messages').set(due).where('id', '=', id).execute();
    return { ...found, ...due };
  });
  ctx.signals.emit('outbox');
  return present(row, await waitingReasonFor(ctx, accountId));
}

/** Puts a failed message back in the queue; it waits there if e-mail is not set up. */
export function retryMessage(ctx: AppContext, accountId: string, id: string): Promise<OutboxMessage> {
  return requeue(ctx, accountId, id, ['failed'], 'only a failed message can be retried');
}

/**
 * Sends a waiting or failed message at once. Refused while the account cannot send, so the owner
 * is told what to do rather than seeing it wait again.
 */
export async function sendMessageNow(ctx: AppContext, accountId: string, id: string): Promise<OutboxMessage> {
  const { config } = await getAccount(ctx.db, accountId);
  if (!senderAddress(config)) {
    throw invalidState('Not sent — set up e-mail first: Settings › Business › E-mail.');
  }
  return requeue(ctx, accountId, id, ['queued', 'failed'], 'it cannot be sent now');
}

/** Cancels a message that has not gone out: it stays listed as cancelled, and never goes. */
export async function cancelMessage(ctx: AppContext, accountId: string, id: string): Promise<OutboxMessage> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    const found = await findMessage(tx, accountId, id);
    if (found.cancelled_at || (found.status !== 'queued' && found.status !== 'failed')) {
      throw invalidState(`Message ${id} is ${mailStatus(found)} and cannot be cancelled`);
    }
    const cancelled = {
      status: 'failed' as const,
      cancelled_at: isoNow(ctx.clock),
      next_attempt_at: null,
      last_error: 'Cancelled by you',
    };
    await tx.updateTable('mail_messages').set(cancelled).where('id', '=', id).execute();
    return { ...found, ...cancelled };
  });
  return present(row, null);
}
