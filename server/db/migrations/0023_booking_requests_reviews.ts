import { type Kysely, sql } from 'kysely';

/**
 * Booking requests and review requests (docs/booking-requests-and-reviews.md). A request is a
 * pending booking plus what the customer asked (booking_requests, keyed by the booking) and their
 * photos; a review request records the one e-mail a completed visit's customer gets.
 * mail_messages.purpose names the messages these send: the kind column's CHECK predates them and a
 * table rebuild is not add-only, so they store the plain-message kind and say what they are here.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  const statements = [
    `CREATE TABLE booking_requests (
      booking_id TEXT PRIMARY KEY REFERENCES bookings(id),
      account_id TEXT NOT NULL REFERENCES accounts(id),
      origin TEXT NOT NULL CHECK (origin IN ('client_hub', 'booking_page')),
      service_id TEXT,
      property_id TEXT REFERENCES properties(id),
      preferred TEXT NOT NULL,
      contact TEXT,
      outcome TEXT CHECK (outcome IN ('confirmed', 'converted_to_job', 'converted_to_quote', 'declined')),
      decline_message TEXT,
      quote_id TEXT REFERENCES quotes(id),
      decided_at TEXT,
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL
    )`,
    'CREATE INDEX booking_requests_account ON booking_requests(account_id, booking_id)',
    `CREATE TABLE booking_photos (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      booking_id TEXT NOT NULL REFERENCES bookings(id),
      position INTEGER NOT NULL,
      content_type TEXT NOT NULL,
      size_bytes INTEGER NOT NULL,
      data TEXT NOT NULL,
      created_at TEXT NOT NULL
    )`,
    'CREATE INDEX booking_photos_booking ON booking_photos(booking_id, position)',
    `CREATE TABLE review_requests (
      id TEXT PRIMARY KEY,
      account_id TEXT NOT NULL REFERENCES accounts(id),
      job_id TEXT NOT NULL REFERENCES jobs(id),
      customer_id TEXT REFERENCES customers(id),
      status TEXT NOT NULL CHECK (status IN ('sent', 'no_email', 'no_link', 'answered')),
      message_id TEXT,
      review_id TEXT,
      created_at TEXT NOT NULL,
      answered_at TEXT,
      updated_at TEXT NOT NULL
    )`,
    'CREATE INDEX review_requests_job ON review_requests(job_id)',
    'CREATE INDEX review_requests_account ON review_requests(account_id, id)',
    'ALTER TABLE mail_messages ADD COLUMN purpose TEXT',
  ];
  for (const statement of statements) await sql.raw(statement).execute(db);
}
