import type { MailMessage } from '../../shared/schemas/customer';
import type { OutboxMessage } from '../../shared/schemas/mail-outbox';
import type { Formatters } from '../lib/format';
import { href } from '../lib/router';
import { useFormat } from '../lib/session';

/** Where the owner sets up e-mail, linked from every message that waits for it. */
export const EMAIL_SETTINGS = href('settings', 'business');

/**
 * Where an e-mail stands, in the same words on every screen (Messages, an invoice, a quote, a
 * customer's history). Nothing is called sent before the mail server took it.
 */
/** A message as the outbox lists it, or as a customer's history does (without why it waits). */
type AnyMessage = Pick<MailMessage, 'status' | 'last_error' | 'sent_at'> &
  Partial<Pick<OutboxMessage, 'waiting_reason' | 'next_attempt_at' | 'attempts'>>;

export function mailStatusWords(message: AnyMessage, format: Formatters): string {
  switch (message.status) {
    case 'sent':
      return message.sent_at ? `Sent ${format.dateTime(message.sent_at)}` : 'Sent';
    case 'cancelled':
      return `Not sent — ${message.last_error ?? 'cancelled'}`;
    case 'failed':
      return `Not sent — ${message.last_error ?? 'the mail server refused it'}`;
    default:
      if (message.waiting_reason === undefined) return 'Queued';
      if (message.waiting_reason === 'smtp_not_configured') return 'Queued, waits for e-mail settings';
      if (message.waiting_reason === 'offline') return 'Queued, goes out when this computer is back online';
      if (message.next_attempt_at && message.attempts) {
        return `Queued, next try ${format.dateTime(message.next_attempt_at)}`;
      }
      return 'Going out now';
  }
}

/** The status words, with the way out when e-mail is not set up. */
export function MailStatus({ message }: { message: AnyMessage }) {
  const format = useFormat();
  const words = mailStatusWords(message, format);
  const tone =
    message.status === 'sent'
      ? 'cell-sub'
      : message.status === 'failed'
        ? 'reason reason-danger'
        : 'reason reason-warning';
  return (
    <span className={tone} data-testid="mail-status">
      {words}
      {message.waiting_reason === 'smtp_not_configured' && (
        <>
          {' '}
          — <a href={EMAIL_SETTINGS}>Set up e-mail</a>
        </>
      )}
    </span>
  );
}
