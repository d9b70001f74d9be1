import { type RawBuilder, type SqlBool, sql } from 'kysely';
import { toCents } from '../../shared/money';
import { fillReminder } from '../../shared/reminder-templates';
import type { StoredConfig } from '../../shared/schemas/config';
import type { ReminderSettings } from '../../shared/schemas/reminders';
import { addDays, daysBetween, startOfDay, wallClockDate, wallTime } from '../../shared/time-zone';
import type { AppContext } from '../context';
import type { MailMessagesTable, ReminderKind } from '../db/schema';
import { todayIn, toIso } from '../lib/clock';
import { ApiError } from '../lib/errors';
import { getAccount } from './accounts';
import { clientHubUrl, issueClientLink } from './client-links';
import { invoiceMailHeldBack, type Outgoing, queuedHubLink, quoteMailHeldBack } from './document-mail';
import { formatMoney } from './documents';
import { OPEN_STATUSES } from './invoice-status';
import { getInvoice } from './invoices';
import { getJob } from './jobs';
import { queueMail } from './mail';
import { getQuote } from './quotes';

/**
 * Automatic reminders (docs/reminders-and-tax.md). Each reminder has occasions: an invoice's steps
 * after its due date ('overdue+7d'), the day before a visit at its start ('visit@<start>'), a sent
 * quote's follow-up ('follow-up'). An occasion is queued once: its reminder_sends row, keyed by the
 * occasion, is written in the transaction that queues the e-mail. What the e-mail says is written
 * afresh when it leaves, and it is held back then if its reason went away.
 */

/** Most occasions of one kind queued in one pass; the rest are queued by the next pass. */
const PASS_LIMIT = 200;

interface Occasion {
  kind: ReminderKind;
  subjectId: string;
  occasion: string;
}

/** The stored kind whose delivery a reminder shares (migration 0009): which PDF, if any, goes with it. */
const MAIL_KIND: Record<ReminderKind, MailMessagesTable['kind']> = {
  invoice_overdue: 'invoice',
  quote_follow_up: 'quote',
  appointment: 'winback',
};

const SWITCHED_OFF: Record<ReminderKind, string> = {
  invoice_overdue: 'Overdue invoice reminders were switched off before this e-mail went out.',
  appointment: 'Visit reminders were switched off before this e-mail went out.',
  quote_follow_up: 'Quote follow-ups were switched off before this e-mail went out.',
};

function visitTime(start: string, config: StoredConfig): string {
  return new Intl.DateTimeFormat(config.locale, {
    dateStyle: 'full',
    timeStyle: 'short',
    timeZone: 'UTC',
  }).format(wallClockDate(new Date(start), config.timezone));
}

function written(settings: { subject: string; body: string }, values: Record<string, string>) {
  return { subject: fillReminder(settings.subject, values), body: fillReminder(settings.body, values) };
}

/** What each reminder's customer finds behind their client hub link. */
const HUB_LINK_WORDS: Record<ReminderKind, string> = {
  invoice_overdue: 'See the invoice, its payments and how to pay:',
  quote_follow_up: 'See the quote and approve it online:',
  appointment: 'See your visits or ask to reschedule:',
};

/**
 * A reminder ends with the customer's client hub link, after the owner's own text (the templates
 * have no placeholder for it), where the business set its client hub's address: the customer pays,
 * approves or asks to move the visit there.
 */
function withHubLink(body: string, kind: ReminderKind, link: string | null): string {
  return link ? `${body}\n\n${HUB_LINK_WORDS[kind]} ${link}` : body;
}

const NO_EMAIL =
  'Not sent: this customer has no e-mail address. Call them, or print the PDF and hand it over.';

/** What a reminder says now, or why it must not go (paid, cancelled, moved, switched off, gone). */
async function compose(
  ctx: AppContext,
  accountId: string,
  config: StoredConfig,
  occasion: Occasion,
): Promise<Outgoing & { customerId?: string }> {
  const settings = config.reminders;
  if (!settings[occasion.kind].enabled) return { cancel: SWITCHED_OFF[occasion.kind] };
  const business = { business_name: config.business_name };
  const today = todayIn(ctx.clock, config.timezone);
  try {
    if (occasion.kind === 'invoice_overdue') {
      const invoice = await getInvoice(ctx, accountId, occasion.subjectId);
      const heldBack = invoiceMailHeldBack(invoice);
      if (heldBack) return { cancel: heldBack };
      const money = (amount: number) => formatMoney(toCents(amount), invoice.currency, config.locale);
      return {
        to: invoice.customer.email ?? '',
        customerId: invoice.customer.id,
        ...written(settings.invoice_overdue, {
          ...business,
          customer_name: invoice.customer.name,
          invoice_number: invoice.number,
          amount_due: money(invoice.balance),
          invoice_total: money(invoice.total),
          due_date: invoice.due_date,
          days_overdue: String(Math.max(0, daysBetween(invoice.due_date, today))),
        }),
      };
    }
    if (occasion.kind === 'quote_follow_up') {
      const quote = await getQuote(ctx, accountId, occasion.subjectId);
      const heldBack = quoteMailHeldBack(quote);
      if (heldBack) return { cancel: heldBack };
      return {
        to: quote.customer.email ?? '',
        customerId: quote.customer.id,
        ...written(settings.quote_follow_up, {
          ...business,
          customer_name: quote.customer.name,
          quote_number: quote.number,
          quote_total: formatMoney(toCents(quote.total), quote.currency, config.locale),
          valid_until: quote.valid_until,
        }),
      };
    }
    const job = await getJob(ctx, accountId, occasion.subjectId);
    const start = occasion.occasion.slice('visit@'.length);
    if (job.status !== 'scheduled')
      return { cancel: `Visit ${job.job_number} is ${job.status.replace('_', ' ')}.` };
    if (job.scheduled_start !== start) {
      return { cancel: `Visit ${job.job_number} was moved; a reminder for its new time goes by itself.` };
    }
    if (start <= toIso(ctx.clock.now())) return { cancel: `Visit ${job.job_number} has already begun.` };
    return {
      to: job.customer.email ?? '',
      customerId: job.customer.id,
      ...written(settings.appointment, {
        ...business,
        customer_name: job.customer.name,
        visit_time: visitTime(start, config),
        visit_title: job.title,
        visit_address: job.address ?? '',
      }),
    };
  } catch (error) {
    if (error instanceof ApiError && error.status === 404)
      return { cancel: `${error.message}: it was deleted.` };
    throw error;
  }
}

/** What a waiting reminder says as it leaves now, or why it must not leave. */
export async function composeReminderMail(ctx: AppContext, row: MailMessagesTable): Promise<Outgoing> {
  const sent = await ctx.db
    .selectFrom('reminder_sends')
    .select(['kind', 'subject_id', 'occasion'])
    .where('message_id', '=', row.id)
    .executeTakeFirst();
  if (!sent) return { cancel: 'This reminder lost its record; it was not sent.' };
  const { config } = await getAccount(ctx.db, row.account_id);
  const { customerId: _customerId, ...outgoing } = await compose(ctx, row.account_id, config, {
    kind: sent.kind,
    subjectId: sent.subject_id,
    occasion: sent.occasion,
  });
  if ('cancel' in outgoing) return outgoing;
  if (!outgoing.to) return { cancel: NO_EMAIL };
  return { ...outgoing, body: withHubLink(outgoing.body, sent.kind, queuedHubLink(row.body)) };
}

/**
 * The last day whose send hour has passed: an occasion dated on or before it is due. Comparing
 * wall-clock readings keeps "9:00" at 9:00 in the business's zone across daylight-saving changes.
 */
function lastSendDay(now: Date, today: string, settings: ReminderSettings, timeZone: string): string {
  return wallTime(now, timeZone).hour >= settings.send_hour ? today : addDays(today, -1);
}

/**
 * Overdue invoices whose latest due step has no record yet. Only the latest step an invoice reached
 * is queued; steps it passed meanwhile (the machine was off, reminders were just switched on) are
 * recorded as skipped, so a customer never gets the 3-, 7- and 14-day reminders at once.
 */
async function overdueOccasions(ctx: AppContext, accountId: string, lastDay: string, days: number[]) {
  const found: Array<Occasion & { skipped: string[] }> = [];
  for (const [i, step] of days.entries()) {
    const reachedBy = addDays(lastDay, -step);
    const next = days[i + 1];
    let query = ctx.db
      .selectFrom('invoices as i')
      .select('i.id')
      .where('i.account_id', '=', accountId)
      .where('i.status', 'in', OPEN_STATUSES)
      .where('i.due_date', '<=', reachedBy)
      .where(notRemindedYet('invoice_overdue', 'i.id', sql`${`overdue+${step}d`}`));
    if (next !== undefined) query = query.where('i.due_date', '>', addDays(lastDay, -next));
    const rows = await query.orderBy('i.due_date').limit(PASS_LIMIT).execute();
    const skipped = days.slice(0, i).map((earlier) => `overdue+${earlier}d`);
    for (const row of rows) {
      found.push({ kind: 'invoice_overdue', subjectId: row.id, occasion: `overdue+${step}d`, skipped });
    }
  }
  return found;
}

/**
 * No reminder of this kind is recorded yet for the record (`subject`, a column of the outer query),
 * on this occasion when one is given: the one check that keeps each occasion to a single e-mail.
 */
function notRemindedYet(kind: ReminderKind, subject: string, occasion?: RawBuilder<unknown>) {
  return sql<SqlBool>`NOT EXISTS (SELECT 1 FROM reminder_sends r WHERE r.kind = ${kind} AND r.subject_id = ${sql.ref(subject)}${
    occasion ? sql` AND r.occasion = ${occasion}` : sql``
  })`;
}

/** Visits tomorrow (in the business's zone) once today's send hour has passed. */
async function visitOccasions(
  ctx: AppContext,
  accountId: string,
  now: Date,
  today: string,
  timeZone: string,
) {
  const tomorrow = addDays(today, 1);
  const rows = await ctx.db
    .selectFrom('jobs as j')
    .select(['j.id', 'j.scheduled_start'])
    .where('j.account_id', '=', accountId)
    .where('j.status', '=', 'scheduled')
    .where('j.scheduled_start', '>=', toIso(startOfDay(tomorrow, timeZone)))
    .where('j.scheduled_start', '<', toIso(startOfDay(addDays(tomorrow, 1), timeZone)))
    .where('j.scheduled_start', '>', toIso(now))
    .where(notRemindedYet('appointment', 'j.id', sql`'visit@' || ${sql.ref('j.scheduled_start')}`))
    .orderBy('j.scheduled_start')
    .limit(PASS_LIMIT)
    .execute();
  return rows.map(
    (row): Occasion => ({ kind: 'appointment', subjectId: row.id, occasion: `visit@${row.scheduled_start}` }),
  );
}

/** Quotes sent `days` or more days ago that are still open and never had their follow-up. */
async function followUpOccasions(
  ctx: AppContext,
  accountId: string,
  today: string,
  lastDay: string,
  days: number,
  timeZone: string,
) {
  const rows = await ctx.db
    .selectFrom('quotes as q')
    .select('q.id')
    .where('q.account_id', '=', accountId)
    .where('q.status', '=', 'sent')
    .where('q.valid_until', '>=', today)
    .where('q.sent_at', '<', toIso(startOfDay(addDays(lastDay, 1 - days), timeZone)))
    .where(notRemindedYet('quote_follow_up', 'q.id'))
    .orderBy('q.sent_at')
    .limit(PASS_LIMIT)
    .execute();
  return rows.map((row): Occasion => ({ kind: 'quote_follow_up', subjectId: row.id, occasion: 'follow-up' }));
}

/**
 * Queues one occasion's e-mail and its record in one transaction. A record of the occasion that
 * appeared meanwhile (another pass, a synced row) fails the insert on its key and rolls the e-mail
 * back with it. An overdue step cancels an earlier step of the same invoice still waiting to go, so
 * a machine offline for a week sends the latest reminder only.
 */
async function queueOccasion(
  ctx: AppContext,
  accountId: string,
  config: StoredConfig,
  occasion: Occasion & { skipped?: string[] },
): Promise<boolean> {
  const outgoing = await compose(ctx, accountId, config, occasion);
  if ('cancel' in outgoing) return false;
  const now = toIso(ctx.clock.now());
  try {
    await ctx.db.transaction().execute(async (tx) => {
      const link =
        outgoing.to &&
        outgoing.customerId &&
        config.client_hub_url &&
        (await issueClientLink(tx, ctx, accountId, outgoing.customerId));
      const message = await queueMail(tx, ctx, accountId, {
        kind: MAIL_KIND[occasion.kind],
        customerId: outgoing.customerId ?? null,
        documentId: occasion.subjectId,
        to: outgoing.to,
        subject: outgoing.subject,
        body: withHubLink(
          outgoing.body,
          occasion.kind,
          link ? clientHubUrl(config.client_hub_url, link.token) : null,
        ),
        reminder: occasion.kind,
        // Kept in the reminders list as not sent, so the owner sees why rather than nothing.
        ...(!outgoing.to && { notSent: NO_EMAIL }),
      });
      await tx
        .insertInto('reminder_sends')
        .values({
          account_id: accountId,
          kind: occasion.kind,
          subject_id: occasion.subjectId,
          occasion: occasion.occasion,
          outcome: 'queued',
          message_id: message.id,
          created_at: now,
        })
        .execute();
      for (const skipped of occasion.skipped ?? []) {
        await tx
          .insertInto('reminder_sends')
          .values({
            account_id: accountId,
            kind: occasion.kind,
            subject_id: occasion.subjectId,
            occasion: skipped,
            outcome: 'skipped',
            message_id: null,
            created_at: now,
          })
          .onConflict((oc) => oc.doNothing())
          .execute();
      }
      if (occasion.kind === 'invoice_overdue') {
        await tx
          .updateTable('mail_messages')
          .set({
            status: 'failed',
            cancelled_at: now,
            next_attempt_at: null,
            last_error: 'A later reminder of this invoice replaced this one.',
          })
          .where('document_id', '=', occasion.subjectId)
          .where('reminder', '=', 'invoice_overdue')
          .where('status', '=', 'queued')
          .where('id', '!=', message.id)
          .execute();
      }
    });
  } catch (error) {
    if (error instanceof Error && /UNIQUE constraint failed: reminder_sends/.test(error.message))
      return false;
    throw error;
  }
  return true;
}

/** Queues every reminder of one account that is due now and was never queued; returns how many. */
export async function queueDueReminders(ctx: AppContext, accountId: string): Promise<number> {
  const { config } = await getAccount(ctx.db, accountId);
  const settings = config.reminders;
  const now = ctx.clock.now();
  const today = todayIn(ctx.clock, config.timezone);
  const lastDay = lastSendDay(now, today, settings, config.timezone);
  const occasions: Array<Occasion & { skipped?: string[] }> = [];
  if (settings.invoice_overdue.enabled) {
    occasions.push(
      ...(await overdueOccasions(ctx, accountId, lastDay, settings.invoice_overdue.days_after_due)),
    );
  }
  if (settings.appointment.enabled && lastDay === today) {
    occasions.push(...(await visitOccasions(ctx, accountId, now, today, config.timezone)));
  }
  if (settings.quote_follow_up.enabled) {
    occasions.push(
      ...(await followUpOccasions(
        ctx,
        accountId,
        today,
        lastDay,
        settings.quote_follow_up.days_after_sent,
        config.timezone,
      )),
    );
  }
  let queued = 0;
  for (const occasion of occasions) {
    if (await queueOccasion(ctx, accountId, config, occasion)) queued += 1;
  }
  return queued;
}
