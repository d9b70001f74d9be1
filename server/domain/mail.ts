import type { MailMessage } from '../../shared/schemas/customer';
import type { AppContext } from '../context';
import type { Queryable, Tx } from '../db/database';
import { thisNode } from '../db/node';
import type { MailMessagesTable, ReminderKind } from '../db/schema';
import type { MailPurpose } from '../db/schema-requests';
import { isoNow } from '../lib/clock';
import { invalidState } from '../lib/errors';
import { newId } from '../lib/ids';

export interface QueuedMail {
  kind: MailMessagesTable['kind'];
  customerId: string | null;
  documentId: string | null;
  to: string;
  subject: string;
  body: string;
  offer?: string | null;
  reminder?: ReminderKind;
  /** Recorded as never going out, for this reason (an automatic reminder to a customer without e-mail). */
  notSent?: string;
  /** What a plain message is (kind 'winback' in storage), when it is not a win-back. */
  purpose?: MailPurpose;
  /** An id every install computes alike for the same occasion, so sync keeps one message. */
  id?: string;
}

/**
 * Puts a message in the mail outbox, inside the caller's transaction. Delivery (SMTP, retries,
 * offline waits) belongs to the mail worker; the PDF of an invoice or quote is rendered when the
 * message is sent, from the document as it was stored.
 */
export async function queueMail(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  mail: QueuedMail,
): Promise<MailMessage> {
  if (!mail.to && !mail.notSent)
    throw invalidState(
      'There is no customer e-mail to send this to: its customer was deleted on another device (see Settings > Sync > Conflicts).',
    );
  const now = isoNow(ctx.clock);
  const row: MailMessagesTable = {
    id: mail.id ?? newId('msg', ctx.clock.now().getTime()),
    account_id: accountId,
    kind: mail.kind,
    customer_id: mail.customerId,
    document_id: mail.documentId,
    to_address: mail.to,
    subject: mail.subject,
    body: mail.body,
    offer: mail.offer ?? null,
    status: mail.notSent ? 'failed' : 'queued',
    attempts: 0,
    next_attempt_at: mail.notSent ? null : now,
    last_error: mail.notSent ?? null,
    created_at: now,
    sent_at: null,
    cancelled_at: mail.notSent ? now : null,
    reminder: mail.reminder ?? null,
    purpose: mail.purpose ?? null,
  };
  await tx
    .insertInto('mail_messages')
    .values({ ...row, sending_node: thisNode })
    .execute();
  return presentMail(row);
}

/** A cancelled message is stored as failed with cancelled_at set (see migration 0007). */
export function mailStatus(row: Pick<MailMessagesTable, 'status' | 'cancelled_at'>): MailMessage['status'] {
  return row.cancelled_at ? 'cancelled' : row.status;
}

export function presentMail(row: MailMessagesTable): MailMessage {
  return {
    id: row.id,
    object: 'mail_message',
    kind: row.reminder ? 'reminder' : (row.purpose ?? row.kind),
    reminder: row.reminder ?? null,
    to: row.to_address,
    subject: row.subject,
    body: row.body,
    status: mailStatus(row),
    attempts: row.attempts,
    last_error: row.last_error,
    created_at: row.created_at,
    sent_at: row.sent_at,
  };
}

export async function listMailForDocument(
  db: Queryable,
  accountId: string,
  documentId: string,
): Promise<MailMessage[]> {
  const rows = await db
    .selectFrom('mail_messages')
    .selectAll()
    .where('account_id', '=', accountId)
    .where('document_id', '=', documentId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map(presentMail);
}

/** Fills {placeholders} of a template; unknown ones are left as they are so a typo shows. */
export function fillTemplate(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (whole, name: string) => values[name] ?? whole);
}

/** Holds back a document's waiting e-mails for good (paid in full, voided), saying why. */
export async function cancelWaitingMail(
  tx: Tx,
  documentId: string,
  reason: string,
  now: string,
): Promise<void> {
  await tx
    .updateTable('mail_messages')
    .set({ status: 'failed', cancelled_at: now, next_attempt_at: null, last_error: reason })
    .where('document_id', '=', documentId)
    .where('status', '=', 'queued')
    .execute();
}

/** The e-mail of a document still waiting to go out, if any. */
export async function waitingMailFor(db: Queryable, documentId: string) {
  return db
    .selectFrom('mail_messages')
    .select(['id', 'status'])
    .where('document_id', '=', documentId)
    .where('status', 'in', ['queued', 'sending'])
    .executeTakeFirst();
}
