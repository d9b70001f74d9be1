import type { StoredConfig } from '../../shared/schemas/config';
import type { MessageListQuery, OutboxMessage } from '../../shared/schemas/mail-outbox';
import type { AppContext } from '../context';
import type { MailMessagesTable } from '../db/schema';
import { isoNow } from '../lib/clock';
import { invalidState, notFound } from '../lib/errors';
import { getAccount } from './accounts';
import { presentMail } from './mail';
import { keysetPage, type Page } from './pagination';

/** The sender address, or null when the account cannot send: SMTP needs a host and a From address. */
export function senderAddress(config: StoredConfig): string | null {
  if (!config.smtp) return null;
  return config.smtp.from ?? config.business_email ?? null;
}

type WaitingReason = OutboxMessage['waiting_reason'];

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
      if (query.status) q = q.where('status', '=', query.status);
      return q.orderBy('id', 'desc').limit(limit).execute();
    },
    (rows) => rows.map((row) => present(row, reason)),
  );
}

/** Puts a failed message back in the queue, due now, with a fresh set of attempts. */
export async function retryMessage(ctx: AppContext, accountId: string, id: string): Promise<OutboxMessage> {
  const row = await ctx.db.transaction().execute(async (tx) => {
    const found = await tx
      .selectFrom('mail_messages')
      .selectAll()
      .where('account_id', '=', accountId)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!found) throw notFound(`No message ${id}`);
    if (found.status !== 'failed') {
      throw invalidState(`Message ${id} is ${found.status}; only a failed message can be retried`);
    }
    const retried = { ...found, status: 'queued' as const, attempts: 0, next_attempt_at: isoNow(ctx.clock) };
    await tx
      .updateTable('mail_messages')
      .set({ status: retried.status, attempts: 0, next_attempt_at: retried.next_attempt_at })
      .where('id', '=', id)
      .execute();
    return retried;
  });
  ctx.signals.emit('outbox');
  return present(row, await waitingReasonFor(ctx, accountId));
}
