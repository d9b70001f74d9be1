import type { AppContext } from '../context';
import { runCompiledOnce } from '../db/compiled-once';
import { deliveredHere } from '../db/node';
import type { MailMessagesTable } from '../db/schema';
import { renderInvoicePdf, renderQuotePdf } from '../documents/pdf';
import { readStoredConfig } from '../domain/accounts';
import { composeDocumentMail, markDocumentSent } from '../domain/document-mail';
import { recordEvent } from '../domain/events';
import { presentMail } from '../domain/mail';
import { senderAddress } from '../domain/mail-outbox';
import { composeReminderMail } from '../domain/reminders';
import {
  defaultJitter,
  type Jitter,
  MAIL_SCHEDULE,
  maxAttempts,
  retryDelayMs,
} from '../domain/retry-schedules';
import { isoNow, steadyClock, toIso } from '../lib/clock';
import { OutboxRunner, type OutboxWorker } from './runner';
import { SMTP_TIMEOUT_MS, type SmtpError, type SmtpSettings, sendThroughSmtp } from './smtp';

export interface MailWorkerOptions {
  /** Messages in flight at once (default 2: small SMTP servers dislike many connections). */
  concurrency?: number;
  pollMs?: number;
  jitter?: Jitter;
}

/** A claim outlives the slowest SMTP conversation, so only a crashed run's claim is ever taken back. */
const CLAIM_MS = 3 * SMTP_TIMEOUT_MS;

interface MailJob {
  row: MailMessagesTable;
  smtp: SmtpSettings;
  from: { name: string; address: string };
}

export type MailWorker = OutboxWorker;

export function startMailWorker(ctx: AppContext, options: MailWorkerOptions = {}): MailWorker {
  const jitter = options.jitter ?? defaultJitter;
  const attemptsAllowed = maxAttempts(MAIL_SCHEDULE);
  // Due times and leases are waits: they are written and compared by a clock that never steps back.
  const waits = steadyClock(ctx.clock);

  async function takeBackLeftClaims(): Promise<void> {
    await ctx.db
      .updateTable('mail_messages')
      .set({ status: 'queued', next_attempt_at: isoNow(waits) })
      .where('status', '=', 'sending')
      .execute();
  }

  async function claim(max: number, running: string[]): Promise<Array<MailJob & { id: string }>> {
    const now = waits.now();
    const nowIso = toIso(now);
    // Every write wakes the worker; most find nothing due, and a read tells so without a write transaction.
    const anyDue = await runCompiledOnce(ctx.db, 'mail messages due', { nowIso }, (v) =>
      ctx.db
        .selectFrom('mail_messages')
        .select('id')
        .where('status', 'in', ['queued', 'sending'])
        .where('next_attempt_at', '<=', v.nowIso)
        .limit(1),
    );
    if (anyDue.length === 0) return [];
    return ctx.db.transaction().execute(async (tx) => {
      // Accounts without SMTP keep their messages queued; looking only at the others keeps their
      // backlog from crowding out messages that can go.
      const accounts = (await tx.selectFrom('accounts').select(['id', 'config']).execute()).flatMap((a) => {
        const config = readStoredConfig(a.config);
        const address = senderAddress(config);
        return config.smtp && address
          ? [{ id: a.id, smtp: config.smtp, from: { name: config.business_name, address } }]
          : [];
      });
      if (accounts.length === 0) return [];
      let query = tx
        .selectFrom('mail_messages')
        .selectAll()
        // A 'sending' row here is a claim whose holder stopped (crash, kill): it is taken back.
        .where('status', 'in', ['queued', 'sending'])
        .where((eb) => deliveredHere(eb, 'sending_node'))
        .where('next_attempt_at', '<=', nowIso)
        .where(
          'account_id',
          'in',
          accounts.map((a) => a.id),
        );
      if (running.length) query = query.where('id', 'not in', running);
      const due = await query.limit(max).execute();
      if (due.length === 0) return [];
      await tx
        .updateTable('mail_messages')
        .set({ status: 'sending', next_attempt_at: toIso(new Date(now.getTime() + CLAIM_MS)) })
        .where(
          'id',
          'in',
          due.map((m) => m.id),
        )
        .execute();
      return due.map((row) => {
        const account = accounts.find((a) => a.id === row.account_id)!;
        return { id: row.id, row, smtp: account.smtp, from: account.from };
      });
    });
  }

  async function attachment(row: MailMessagesTable) {
    if (!row.document_id || (row.kind !== 'invoice' && row.kind !== 'quote')) return [];
    const table = row.kind === 'invoice' ? 'invoices' : 'quotes';
    const document = await ctx.db
      .selectFrom(table)
      .select('number')
      .where('id', '=', row.document_id)
      .executeTakeFirst();
    if (!document) return [];
    const render = row.kind === 'invoice' ? renderInvoicePdf : renderQuotePdf;
    return [
      {
        filename: `${document.number.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`,
        content: await render(ctx, row.account_id, row.document_id, { delivered: true }),
        contentType: 'application/pdf',
      },
    ];
  }

  async function send(job: MailJob): Promise<void> {
    await sendThroughSmtp(job.smtp, {
      from: job.from,
      to: job.row.to_address,
      subject: job.row.subject,
      text: job.row.body,
      attachments: await attachment(job.row),
    });
  }

  async function record(job: MailJob, error: SmtpError | null): Promise<void> {
    const now = ctx.clock.now();
    const due = waits.now();
    const attempt = job.row.attempts + 1;
    // An SMTP 5xx is the server's final word (unknown mailbox, refused login); only the owner can fix it.
    const permanent = error?.responseCode !== undefined && error.responseCode >= 500;
    const delay =
      error && !permanent && attempt < attemptsAllowed ? retryDelayMs(MAIL_SCHEDULE, attempt, jitter) : null;
    const raisedEvent = await ctx.db.transaction().execute(async (tx) => {
      const updated = await tx
        .updateTable('mail_messages')
        .set({
          status: error ? (delay === null ? 'failed' : 'queued') : 'sent',
          attempts: attempt,
          next_attempt_at: delay === null ? null : toIso(new Date(due.getTime() + delay)),
          last_error: error ? (error.response ?? error.message) : null,
          sent_at: error ? null : toIso(now),
        })
        .where('id', '=', job.row.id)
        .where('status', '=', 'sending')
        .executeTakeFirst();
      if (error || updated.numUpdatedRows === 0n) return false;
      await markDocumentSent(tx, job.row, toIso(now));
      if (job.row.reminder) {
        const sent = {
          ...job.row,
          status: 'sent' as const,
          attempts: attempt,
          last_error: null,
          sent_at: toIso(now),
        };
        await recordEvent(tx, ctx.clock, job.row.account_id, 'reminder.sent', {
          ...presentMail(sent),
          document_id: job.row.document_id,
        });
      }
      return Boolean(job.row.reminder);
    });
    if (raisedEvent) ctx.signals.emit('outbox');
  }

  /** Writes a document's e-mail afresh as it leaves; false when it must not leave at all. */
  async function refresh(job: MailJob): Promise<boolean> {
    const outgoing = job.row.reminder
      ? await composeReminderMail(ctx, job.row)
      : await composeDocumentMail(ctx, job.row);
    if (outgoing === null) return true;
    if ('cancel' in outgoing) {
      await ctx.db
        .updateTable('mail_messages')
        .set({
          status: 'failed',
          cancelled_at: isoNow(ctx.clock),
          next_attempt_at: null,
          last_error: outgoing.cancel,
        })
        .where('id', '=', job.row.id)
        .where('status', '=', 'sending')
        .execute();
      return false;
    }
    const fresh = { to_address: outgoing.to, subject: outgoing.subject, body: outgoing.body };
    await ctx.db.updateTable('mail_messages').set(fresh).where('id', '=', job.row.id).execute();
    Object.assign(job.row, fresh);
    return true;
  }

  async function run(job: MailJob, stopping: AbortSignal): Promise<void> {
    if (!(await refresh(job))) return;
    let error: SmtpError | null = null;
    try {
      await send(job);
    } catch (caught) {
      error = caught instanceof Error ? caught : new Error(String(caught));
    }
    const unreachable = error && error.responseCode === undefined;
    if (unreachable && (stopping.aborted || !ctx.connectivity.online)) {
      // Cut off by shutdown or by going offline: the server never judged the message, so no attempt is spent.
      await ctx.db
        .updateTable('mail_messages')
        .set({ status: 'queued', next_attempt_at: isoNow(waits) })
        .where('id', '=', job.row.id)
        .where('status', '=', 'sending')
        .execute();
      return;
    }
    await record(job, error);
  }

  return new OutboxRunner<MailJob & { id: string }>(ctx, {
    concurrency: options.concurrency ?? 2,
    pollMs: options.pollMs ?? 1000,
    claim,
    run,
    takeBackLeftClaims,
  });
}
