import { type Kysely, sql } from 'kysely';

/**
 * Automatic reminders (docs/reminders-and-tax.md).
 *
 * reminder_sends: one row per reminder occasion (an invoice's 7-days-overdue step, the day before a
 * visit at a given start, a quote's follow-up), keyed by the occasion itself so a second queueing of
 * the same occasion fails on the key, here or when the row arrives from another device. It is
 * written in the transaction that queues the e-mail; `outcome` 'skipped' records an occasion that was
 * passed over because a later step of the same invoice was already due.
 *
 * mail_messages.reminder: which reminder a message is. The kind column's CHECK predates reminders
 * (and a table rebuild is not add-only), so a reminder stores the kind whose delivery it shares:
 * 'invoice' (the invoice PDF attached), 'quote' (the quote PDF) or 'winback' (a plain message, for
 * visits).
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE reminder_sends (
      account_id TEXT NOT NULL REFERENCES accounts(id),
      kind TEXT NOT NULL,
      subject_id TEXT NOT NULL,
      occasion TEXT NOT NULL,
      outcome TEXT NOT NULL,
      message_id TEXT,
      created_at TEXT NOT NULL,
      PRIMARY KEY (kind, subject_id, occasion)
    )`,
    'CREATE INDEX reminder_sends_account ON reminder_sends(account_id, created_at)',
    'CREATE INDEX reminder_sends_message ON reminder_sends(message_id)',
    'ALTER TABLE mail_messages ADD COLUMN reminder TEXT',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
