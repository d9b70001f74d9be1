import type { AppContext } from '../context';
import type { Tx } from '../db/database';
import { derivedId, idTime } from '../lib/ids';
import { getAccount } from './accounts';
import { queueMail } from './mail';

export interface OwnerAlert {
  /**
   * What the alert is about, the same wherever it is raised (`booking_request:bkg_…`): the
   * message's id is derived from it, so the owner gets one e-mail per occasion, on any install.
   */
  key: string;
  /** An id or time the occasion happened at: the derived message id sorts by it. */
  at: string;
  subject: string;
  body: string;
}

/**
 * E-mails the owner that a customer acted (Settings > Booking page › "E-mail me when a customer
 * acts"), through the mail outbox, inside the caller's transaction. Nothing when the setting is off
 * or the business has no e-mail address. Returns the message id when one was queued.
 */
export async function notifyOwner(
  tx: Tx,
  ctx: AppContext,
  accountId: string,
  alert: OwnerAlert,
): Promise<string | null> {
  const { config } = await getAccount(tx, accountId);
  if (!config.owner_alerts || !config.business_email) return null;
  // The occasion's time alone: an install whose clock is behind the hub that stamped a customer's
  // action must derive the same id as the others, or the owner gets one e-mail per install.
  const time = idTime(alert.at) ?? (Date.parse(alert.at) || ctx.clock.now().getTime());
  const id = derivedId('msg', time, `owner_alert:${alert.key}`);
  const queued = await tx.selectFrom('mail_messages').select('id').where('id', '=', id).executeTakeFirst();
  if (queued) return null;
  await queueMail(tx, ctx, accountId, {
    id,
    kind: 'winback',
    purpose: 'owner_alert',
    customerId: null,
    documentId: null,
    to: config.business_email,
    subject: alert.subject,
    body: alert.body,
  });
  return id;
}
