import type { SmtpTestResult } from '../../shared/schemas/config';
import type { AppContext } from '../context';
import { getAccount } from '../domain/accounts';
import { senderAddress } from '../domain/mail-outbox';
import { invalidState } from '../lib/errors';
import { type SmtpError, sendThroughSmtp } from './smtp';

const replyCode = (line: string) => {
  const code = /^(\d{3})\b/.exec(line)?.[1];
  return code ? Number(code) : null;
};

/**
 * Sends one test message through the saved SMTP settings, at once and outside the outbox, and
 * reports what the server said: the owner setting up e-mail needs the server's own words (a refused
 * login, an unknown host), not "queued".
 */
export async function sendTestMail(ctx: AppContext, accountId: string, to?: string): Promise<SmtpTestResult> {
  const { config } = await getAccount(ctx.db, accountId);
  if (!config.smtp) throw invalidState('E-mail is not set up: save the SMTP settings first.');
  const from = senderAddress(config);
  if (!from) {
    throw invalidState('There is no address to send from: add a From address or a business e-mail first.');
  }
  const recipient = to ?? from;
  try {
    const response = await sendThroughSmtp(config.smtp, {
      from: { name: config.business_name, address: from },
      to: recipient,
      subject: `Test e-mail from ${config.business_name}`,
      text: `This is a test from Shopdesk. ${config.business_name} can send invoices, quotes and reminders through ${config.smtp.host}:${config.smtp.port}.`,
    });
    return {
      object: 'smtp_test',
      to: recipient,
      delivered: true,
      response,
      response_code: replyCode(response),
    };
  } catch (caught) {
    const error = caught as SmtpError;
    return {
      object: 'smtp_test',
      to: recipient,
      delivered: false,
      response: error.response ?? error.message,
      response_code: error.responseCode ?? null,
    };
  }
}
