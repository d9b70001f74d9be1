import type { SendMailOptions } from 'nodemailer';
import type { StoredConfig } from '../../shared/schemas/config';

export type SmtpSettings = NonNullable<StoredConfig['smtp']>;

export const SMTP_TIMEOUT_MS = 30_000;

/** What a mail server says when it refuses or fails: nodemailer's error carries its reply. */
export interface SmtpError extends Error {
  response?: string;
  responseCode?: number;
}

/** Hands one message to the account's mail server and returns the server's reply line. */
export async function sendThroughSmtp(smtp: SmtpSettings, message: SendMailOptions): Promise<string> {
  // Loaded when mail goes out, not at every start.
  const { default: nodemailer } = await import('nodemailer');
  const transport = nodemailer.createTransport({
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    ...(smtp.user && { auth: { user: smtp.user, pass: smtp.password ?? '' } }),
    connectionTimeout: SMTP_TIMEOUT_MS,
    greetingTimeout: SMTP_TIMEOUT_MS,
    socketTimeout: SMTP_TIMEOUT_MS,
  });
  try {
    const info = await transport.sendMail(message);
    return info.response;
  } finally {
    transport.close();
  }
}
